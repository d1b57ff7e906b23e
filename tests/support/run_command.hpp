// Runs a command line through the shell (popen) and returns what it printed on stdout and how it exited: the
// tests that run a tool as a child process (encore-cache, encore-ls, encore-outliner).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include <doctest/doctest.h>

struct command_result {
    int status = -1; // the exit status; -1 when the command did not exit normally
    std::string out; // stdout (add 2>&1 to the command for stderr too)
};

inline command_result run_command(const std::string& command) {
    command_result r;
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE_MESSAGE(pipe != nullptr, "popen failed for: " << command);
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        r.out.append(buffer, n);
    const int status = ::pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}
