// Device functions of a program's own header, two includes deep, with no annotation: a function template, a class
// template with member functions, a constant.
#pragma once

namespace corpus::math {

inline constexpr int bias = 3;

template <typename T> T square(T x) { return x * x; }

inline int mix(int a, int b) { return square(a) - b + bias; }

template <typename T> class accumulator {
public:
    explicit accumulator(T start) : total_(start) {}
    void add(T x) { total_ += square(x); }
    T total() const { return total_; }

private:
    T total_;
};

} // namespace corpus::math
