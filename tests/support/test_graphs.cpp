#include "test_graphs.hpp"
