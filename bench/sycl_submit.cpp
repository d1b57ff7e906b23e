// sycl_submit — the SYCL eager path, per launch, against the same kernels launched raw, in one run (issue 40).
//
// Forms (each: `launches` submissions back to back, then one wait; tiny kernels, so the time is the path's):
//   nd_range_local     q.submit + parallel_for(nd_range{64,64}) with a local_accessor and a barrier (64 ints
//                      reversed through local memory), in-order queue, the returned event dropped
//   nd_launch          the same kernel through the enqueue functions (syclex::nd_launch: no event made)
//   out_of_order_deps  the same kernel on an out-of-order queue, each submission depends_on the previous event
//   single_task        q.single_task adding one to an int, in-order
//   usm_range          q.parallel_for(range{1024}) adding one to USM ints, in-order
//   buffer_accessor    q.submit with a read_write accessor of a 1,024-int buffer, parallel_for(range{1024})
//
// Raw: on a CUDA GPU, cuLaunchKernel of the same kernels written in CUDA (bench/sycl_submit_cuda.cu; dynamic
// shared memory for the local form) on one stream; on the native backend, the engine-level submission
// (encore::queue::parallel_for of a kernel made once: the same ranges, local memory as a kernel argument) on an
// in-order encore::queue (an out-of-order one with the previous event as dependency for out_of_order_deps).
// Each round times SYCL then raw for every form, alternating order between rounds; the table gives the medians of
// 7 rounds per side and the median of the per-round ratios.
//
//   sycl_submit [--json] [--launches N] [--rounds N] [--native-only | --cuda-only] [--form NAME]
//   --form: only that form; --cuda-only: only CUDA devices (both for a profiler)
//   --json: {"results": [{"device": ..., "form": ..., "sycl_ns_per_launch": ..., "raw_ns_per_launch": ...,
//            "ratio": ...}]}
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/experimental/enqueue_functions.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "encore/runtime/runtime.hpp"
#include "timing.hpp"

#if defined(ENCORE_SYCL_SUBMIT_CUDA_PEER)
extern "C" {
void* peer_malloc(std::size_t bytes);
void peer_free(void* p);
double peer_launches(int form, int* p, int count);
}
#endif

namespace {

using bench::median;
using bench::seconds_since;

namespace syclex = sycl::ext::oneapi::experimental;

struct result {
    std::string device, form;
    double sycl_ns = 0, raw_ns = 0, ratio = 0;
};

struct settings {
    int launches = 20000;
    int rounds = 7;
    bool json = false;
    bool native_only = false;
    bool cuda_only = false;
    std::string form; // empty: every form
};

// The SYCL side of every form on queue `q` (in-order) and `ooo` (out-of-order) of one device; `p` 1,024 USM ints.
struct sycl_forms {
    sycl::queue& q;
    sycl::queue& ooo;
    int* p;
    sycl::buffer<int, 1>& b;

    double time(const std::string& form, int n) {
        q.wait();
        ooo.wait();
        const auto start = std::chrono::steady_clock::now();
        int* data = p;
        if (form == "nd_range_local") {
            for (int i = 0; i < n; ++i)
                q.submit([&](sycl::handler& h) {
                    sycl::local_accessor<int, 1> tile(64, h);
                    h.parallel_for(sycl::nd_range<1>{64, 64}, [=](sycl::nd_item<1> it) {
                        const auto l = it.get_local_id(0);
                        tile[l] = data[l];
                        sycl::group_barrier(it.get_group());
                        data[l] = tile[63 - l];
                    });
                });
            q.wait();
        } else if (form == "nd_launch") {
            for (int i = 0; i < n; ++i)
                syclex::submit(q, [&](sycl::handler& h) {
                    sycl::local_accessor<int, 1> tile(64, h);
                    syclex::nd_launch(h, sycl::nd_range<1>{64, 64}, [=](sycl::nd_item<1> it) {
                        const auto l = it.get_local_id(0);
                        tile[l] = data[l];
                        sycl::group_barrier(it.get_group());
                        data[l] = tile[63 - l];
                    });
                });
            q.wait();
        } else if (form == "out_of_order_deps") {
            sycl::event last;
            for (int i = 0; i < n; ++i)
                last = ooo.submit([&](sycl::handler& h) {
                    h.depends_on(last);
                    sycl::local_accessor<int, 1> tile(64, h);
                    h.parallel_for(sycl::nd_range<1>{64, 64}, [=](sycl::nd_item<1> it) {
                        const auto l = it.get_local_id(0);
                        tile[l] = data[l];
                        sycl::group_barrier(it.get_group());
                        data[l] = tile[63 - l];
                    });
                });
            ooo.wait();
        } else if (form == "single_task") {
            for (int i = 0; i < n; ++i) q.single_task([=] { data[0] += 1; });
            q.wait();
        } else if (form == "usm_range") {
            for (int i = 0; i < n; ++i) q.parallel_for(sycl::range<1>{1024}, [=](sycl::id<1> i) { data[i] += 1; });
            q.wait();
        } else if (form == "buffer_accessor") {
            for (int i = 0; i < n; ++i)
                q.submit([&](sycl::handler& h) {
                    sycl::accessor a{b, h, sycl::read_write};
                    h.parallel_for(sycl::range<1>{1024}, [=](sycl::id<1> i) { a[i] += 1; });
                });
            q.wait();
        }
        return seconds_since(start);
    }
};

// The engine-level submission of the same work on the native device (the raw side there).
struct engine_forms {
    encore::queue in_order;
    encore::queue out_of_order;
    int* p;
    std::shared_ptr<const encore::kernel> reverse, add_single, add;

    engine_forms(const encore::device& d, int* data)
        : in_order(d, encore::queue_properties{.in_order = true}), out_of_order(d, encore::queue_properties{}),
          p(data) {
        reverse = encore::make_kernel("reverse64", [data](const encore::work_item& it) {
            auto* tile = reinterpret_cast<int*>(it.local_memory[0]);
            const auto l = it.local_id[0];
            tile[l] = data[l];
            it.barrier(it.group_state);
            data[l] = tile[63 - l];
        });
        add_single = encore::make_kernel("add_one_single", [data](const encore::work_item&) { data[0] += 1; });
        add = encore::make_kernel("add_one", [data](const encore::work_item& it) { data[it.global_id[0]] += 1; });
    }

    double time(const std::string& form, int n) {
        in_order.wait();
        out_of_order.wait();
        const auto start = std::chrono::steady_clock::now();
        const auto group = encore::make_nd_range(1, {64, 1, 1}, {64, 1, 1});
        if (form == "nd_range_local" || form == "nd_launch") {
            for (int i = 0; i < n; ++i)
                in_order.parallel_for(group, reverse, {encore::kernel_argument::local(64 * sizeof(int))});
            in_order.wait();
        } else if (form == "out_of_order_deps") {
            encore::event last;
            for (int i = 0; i < n; ++i)
                last = out_of_order.parallel_for(group, reverse, {encore::kernel_argument::local(64 * sizeof(int))},
                                                 last.state() ? encore::event_list{last} : encore::event_list{});
            out_of_order.wait();
        } else if (form == "single_task") {
            for (int i = 0; i < n; ++i) in_order.parallel_for(encore::range(1), add_single, encore::event_list{});
            in_order.wait();
        } else {
            for (int i = 0; i < n; ++i) in_order.parallel_for(encore::range(1024), add, encore::event_list{});
            in_order.wait();
        }
        return seconds_since(start);
    }
};

const std::vector<std::string> forms = {"nd_range_local", "nd_launch",       "out_of_order_deps",
                                        "single_task",    "usm_range",       "buffer_accessor"};

#if defined(ENCORE_SYCL_SUBMIT_CUDA_PEER)
int raw_cuda_form(const std::string& form) {
    if (form == "single_task") return 1;
    if (form == "usm_range" || form == "buffer_accessor") return 2;
    return 0;
}
#endif

// Every form on one device: SYCL against `raw` (seconds for n launches of a form), rounds alternating order.
std::vector<result> measure(const std::string& device_name, sycl_forms& s,
                            const std::function<double(const std::string&, int)>& raw, const settings& o) {
    std::vector<result> out;
    for (const auto& form : forms) {
        if (!o.form.empty() && form != o.form) continue;
        s.time(form, std::min(o.launches, 1000)); // warm: modules loaded, pools filled
        raw(form, std::min(o.launches, 1000));
        std::vector<double> sycl_times, raw_times, ratios;
        for (int r = 0; r < o.rounds; ++r) {
            double ts, tr;
            if (r % 2 == 0) {
                ts = s.time(form, o.launches);
                tr = raw(form, o.launches);
            } else {
                tr = raw(form, o.launches);
                ts = s.time(form, o.launches);
            }
            sycl_times.push_back(ts);
            raw_times.push_back(tr);
            ratios.push_back(ts / tr);
        }
        result x;
        x.device = device_name;
        x.form = form;
        x.sycl_ns = median(sycl_times) / o.launches * 1e9;
        x.raw_ns = median(raw_times) / o.launches * 1e9;
        x.ratio = median(ratios);
        out.push_back(x);
    }
    return out;
}

} // namespace

int main(int argc, char** argv) try {
    settings o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json") o.json = true;
        else if (a == "--native-only") o.native_only = true;
        else if (a == "--cuda-only") o.cuda_only = true;
        else if (a == "--launches" && i + 1 < argc) o.launches = std::max(1, std::atoi(argv[++i]));
        else if (a == "--rounds" && i + 1 < argc) o.rounds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--form" && i + 1 < argc && std::find(forms.begin(), forms.end(), argv[i + 1]) != forms.end())
            o.form = argv[++i];
        else {
            std::fprintf(stderr, "usage: sycl_submit [--json] [--launches N] [--rounds N] "
                                 "[--native-only | --cuda-only] [--form NAME]\n");
            return 2;
        }
    }
    std::vector<result> results;
    std::vector<sycl::device> devices;
    for (const auto& d : sycl::device::get_devices())
        if ((!o.cuda_only && d.get_backend() == sycl::backend::ext_oneapi_native_cpu) ||
            (!o.native_only && d.get_backend() == sycl::backend::ext_oneapi_cuda))
            devices.push_back(d);
    for (const auto& d : devices) {
        sycl::queue q{d, sycl::property::queue::in_order{}};
        sycl::queue ooo{d};
        int* p = sycl::malloc_device<int>(1024, q);
        q.fill(p, 0, 1024).wait();
        sycl::buffer<int, 1> b{sycl::range<1>{1024}};
        sycl_forms s{q, ooo, p, b};
        const std::string name = d.get_info<sycl::info::device::name>();
        if (d.get_backend() == sycl::backend::ext_oneapi_native_cpu) {
            int* engine_data = sycl::malloc_shared<int>(1024, q);
            const auto all = encore::device::all();
            const auto native = std::find_if(all.begin(), all.end(), [](const encore::device& e) {
                return e.properties().host_kernels;
            });
            if (native == all.end()) throw std::runtime_error("no native engine device");
            engine_forms e(*native, engine_data);
            auto r = measure(name + " (native)", s, [&](const std::string& f, int n) { return e.time(f, n); }, o);
            results.insert(results.end(), r.begin(), r.end());
            sycl::free(engine_data, q);
        } else {
#if defined(ENCORE_SYCL_SUBMIT_CUDA_PEER)
            int* raw_data = static_cast<int*>(peer_malloc(1024 * sizeof(int)));
            auto r = measure(name + " (cuda)", s,
                             [&](const std::string& f, int n) { return peer_launches(raw_cuda_form(f), raw_data, n); }, o);
            results.insert(results.end(), r.begin(), r.end());
            peer_free(raw_data);
#endif
        }
        sycl::free(p, q);
    }
    if (o.json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i)
            std::printf("%s{\"device\": \"%s\", \"form\": \"%s\", \"sycl_ns_per_launch\": %.1f, "
                        "\"raw_ns_per_launch\": %.1f, \"ratio\": %.3f}",
                        i ? ", " : "", results[i].device.c_str(), results[i].form.c_str(), results[i].sycl_ns,
                        results[i].raw_ns, results[i].ratio);
        std::printf("]}\n");
        return 0;
    }
    std::printf("SYCL eager submission against raw launches (%d launches per turn, median of %d rounds)\n",
                o.launches, o.rounds);
    std::printf("raw: cuLaunchKernel on CUDA, the engine's encore::queue on native\n\n");
    std::printf("%-32s %-18s %12s %12s %8s\n", "device", "form", "SYCL ns", "raw ns", "ratio");
    for (const auto& r : results)
        std::printf("%-32.32s %-18s %12.0f %12.0f %8.2f\n", r.device.c_str(), r.form.c_str(), r.sycl_ns, r.raw_ns,
                    r.ratio);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "sycl_submit: %s\n", e.what());
    return 1;
}
