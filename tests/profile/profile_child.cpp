// A small program for profile_test's ENCORE_PROFILE case: three launches of a one-node graph, then exit.
#include "encore/encore.hpp"

int main() {
    encore::graph g;
    g.add(encore::kernel_command{
        encore::make_kernel("child_kernel", [](const encore::work_item&) {}), {}, encore::range(1)});
    encore::queue q;
    encore::executable_graph exec(g, q.get_device());
    for (int i = 0; i < 3; ++i)
        q.launch(exec);
    q.wait_and_throw();
}
