// A distributed Jacobi solver for a 2-D Poisson problem (-Δu = 1 on the unit square, u = 0 on its edge): the
// grid's rows are split over the MPI ranks, and each rank records one iteration into a graph once — halo exchange
// with its neighbours (an MPI host task), a sweep, the exchange again, the sweep back, the local residual — then
// replays that graph every iteration. Every 50 replays the ranks agree on the largest residual (MPI_Allreduce on the
// main thread, after the queue is idle). At the end rank 0 gathers the grid and compares it, bit for bit, with the
// same iterations computed by one process in plain C++: the answer must not depend on how many ranks computed it.
//
//     mpirun -np 2 build/samples/mpi_jacobi [rows columns]
//
// What a host task may call, and why this is safe (docs/mpi.md): host tasks run on Encore's host-task threads, not
// on main, so MPI is initialized with MPI_THREAD_SERIALIZED at least; in one replay the two exchanges are ordered by
// the graph's edges, consecutive replays by the in-order queue, and main calls MPI only after q.wait(): no two MPI
// calls of a rank ever overlap. Each rank's replay waits for its neighbours inside MPI_Sendrecv, as the eager
// program would.
// MPI's C interface; the C++ bindings MPI-3 removed are not wanted (and do not compile warning-free).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace sycl_ext = sycl::ext::oneapi::experimental;

namespace {
const char* const sample_name = "mpi_jacobi";

// One sweep of the rows [1, rows] of `from` (row 0 and row rows + 1 are halos) into `to`; the first and last
// global rows stay 0 (the boundary), and so do the first and last columns. The same expression as the serial
// reference's, so both round alike.
struct sweep_rows {
    const float* from;
    float* to;
    std::size_t columns;
    bool top_is_boundary, bottom_is_boundary;
    std::size_t rows;
    float h2;
    void operator()(sycl::id<2> at) const {
        const std::size_t r = at[0] + 1, c = at[1];
        const std::size_t i = r * columns + c;
        const bool edge = c == 0 || c + 1 == columns || (top_is_boundary && r == 1) ||
                          (bottom_is_boundary && r == rows);
        to[i] = edge ? 0.0f : 0.25f * (from[i - columns] + from[i + columns] + from[i - 1] + from[i + 1] + h2);
    }
};

// The serial reference: the same sweeps on the whole grid, `pairs` times two.
std::vector<float> serial_jacobi(std::size_t rows, std::size_t columns, float h2, int pairs) {
    std::vector<float> u((rows + 2) * columns, 0.0f), next(u);
    auto sweep = [&](const std::vector<float>& from, std::vector<float>& to) {
        for (std::size_t r = 1; r <= rows; ++r)
            for (std::size_t c = 0; c < columns; ++c) {
                const std::size_t i = r * columns + c;
                const bool edge = c == 0 || c + 1 == columns || r == 1 || r == rows;
                to[i] = edge ? 0.0f
                             : 0.25f * (from[i - columns] + from[i + columns] + from[i - 1] + from[i + 1] + h2);
            }
    };
    for (int k = 0; k < pairs; ++k) {
        sweep(u, next);
        sweep(next, u);
    }
    return std::vector<float>(u.begin() + static_cast<std::ptrdiff_t>(columns),
                              u.end() - static_cast<std::ptrdiff_t>(columns));
}

void check_mpi(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

std::size_t parse_size(const char* text, const char* what) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (!*text || *end || v < 3 || v > 16384)
        throw std::runtime_error(std::string(what) + " must be a whole number from 3 to 16384, not '" + text + "'");
    return static_cast<std::size_t>(v);
}
} // namespace

int main(int argc, char** argv) {
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        std::fprintf(stderr, "%s: MPI_Init_thread failed\n", sample_name);
        return 2;
    }
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int status = 0;
    try {
        if (provided < MPI_THREAD_SERIALIZED)
            throw std::runtime_error("the MPI library gives threads level " + std::to_string(provided) +
                                     "; host tasks call MPI from Encore's threads, which needs MPI_THREAD_SERIALIZED");
        if (argc != 1 && argc != 3) throw std::runtime_error("usage: mpi_jacobi [rows columns]");
        const std::size_t rows = argc == 3 ? parse_size(argv[1], "rows") : 96;
        const std::size_t columns = argc == 3 ? parse_size(argv[2], "columns") : 64;
        if (rows < static_cast<std::size_t>(ranks))
            throw std::runtime_error(std::to_string(rows) + " rows cannot be split over " + std::to_string(ranks) +
                                     " ranks");
        const float h = 1.0f / static_cast<float>(rows - 1); // the first and last rows are the boundary
        const float h2 = h * h;

        // This rank's rows: [first, first + mine) of the global rows, with a halo row above and below.
        const std::size_t base = rows / static_cast<std::size_t>(ranks), extra = rows % static_cast<std::size_t>(ranks);
        const auto r = static_cast<std::size_t>(rank);
        const std::size_t mine = base + (r < extra ? 1 : 0);
        const std::size_t first = r * base + std::min(r, extra);
        const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL;

        sycl::queue q{sycl::property::queue::in_order{}};
        const std::size_t cells = (mine + 2) * columns;
        float* u = sycl::malloc_shared<float>(cells, q);
        float* next = sycl::malloc_shared<float>(cells, q);
        float* residual = sycl::malloc_shared<float>(1, q);
        if (!u || !next || !residual) throw std::runtime_error("out of shared memory");
        std::memset(u, 0, cells * sizeof(float));
        std::memset(next, 0, cells * sizeof(float));

        // Sends this rank's first and last rows of `a` to its neighbours and receives their edge rows into its
        // halos (MPI_PROC_NULL at the ends: nothing is sent or received there).
        auto exchange = [&](float* a) {
            q.submit([&](sycl::handler& cgh) {
                cgh.host_task([=] {
                    const int n = static_cast<int>(columns);
                    check_mpi(MPI_Sendrecv(a + columns, n, MPI_FLOAT, up, 0, a + (mine + 1) * columns, n, MPI_FLOAT,
                                           down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                              "MPI_Sendrecv (up)");
                    check_mpi(MPI_Sendrecv(a + mine * columns, n, MPI_FLOAT, down, 1, a, n, MPI_FLOAT, up, 1,
                                           MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                              "MPI_Sendrecv (down)");
                });
            });
        };
        auto sweep = [&](const float* from, float* to) {
            q.parallel_for(sycl::range<2>{mine, columns},
                           sweep_rows{from, to, columns, first == 0, first + mine == rows, mine, h2});
        };

        sycl_ext::command_graph g{q};
        g.begin_recording(q);
        exchange(u);
        sweep(u, next);
        exchange(next);
        sweep(next, u);
        q.parallel_for(sycl::range<1>{mine * columns},
                       sycl::reduction(residual, sycl::maximum<float>(),
                                       {sycl::property::reduction::initialize_to_identity{}}),
                       [=](sycl::id<1> i, auto& m) {
                           const std::size_t at = i[0] + columns;
                           m.combine(std::fabs(u[at] - next[at]));
                       });
        g.end_recording();
        auto iteration = g.finalize();

        constexpr int check_every = 50, most = 20000;
        int pairs = 0;
        float largest = 0.0f;
        do {
            for (int k = 0; k < check_every; ++k) q.ext_oneapi_graph(iteration);
            q.wait_and_throw();
            pairs += check_every;
            check_mpi(MPI_Allreduce(residual, &largest, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
        } while (largest > 1e-6f && pairs < most);

        // Rank 0 gathers every rank's rows and checks them against one process's answer.
        std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks));
        const int sent = static_cast<int>(mine * columns);
        check_mpi(MPI_Gather(&sent, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
        for (std::size_t k = 1; k < counts.size(); ++k) offsets[k] = offsets[k - 1] + counts[k - 1];
        std::vector<float> whole(rank == 0 ? rows * columns : 0);
        check_mpi(MPI_Gatherv(u + columns, sent, MPI_FLOAT, whole.data(), counts.data(), offsets.data(), MPI_FLOAT, 0,
                              MPI_COMM_WORLD),
                  "MPI_Gatherv");
        if (rank == 0) {
            const std::vector<float> reference = serial_jacobi(rows, columns, h2, pairs);
            std::size_t differ = 0;
            for (std::size_t k = 0; k < whole.size(); ++k)
                if (std::memcmp(&whole[k], &reference[k], sizeof(float)) != 0) ++differ;
            const float middle = whole[(rows / 2) * columns + columns / 2];
            std::printf("%d ranks, %zu x %zu grid: %d graph replays (%zu nodes each: two MPI halo exchanges, two "
                        "sweeps, a residual), residual %.3g, u at the centre %.6f; %zu of %zu values differ from "
                        "one process's\n",
                        ranks, rows, columns, pairs, g.get_nodes().size(), static_cast<double>(largest),
                        static_cast<double>(middle), differ, whole.size());
            if (differ != 0 || !(middle > 0.0f)) status = 1;
        }
        sycl::free(u, q);
        sycl::free(next, q);
        sycl::free(residual, q);
    } catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
        std::fprintf(stderr, "%s (rank %d) failed: %s\n", sample_name, rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 2);
        return 2;
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD); // every rank exits with rank 0's verdict
    MPI_Finalize();
    return status;
}
