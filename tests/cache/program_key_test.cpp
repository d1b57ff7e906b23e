// The key's canonical form and the entry format: what makes a wrong or damaged binary unloadable.
#include <doctest/doctest.h>

#include <variant>

#include "cache_test_support.hpp"
#include "encore/cache/entry_format.hpp"
#include "encore/cache/program_key.hpp"

using namespace encore::cache;
using cache_test::key_of;

TEST_CASE("program_key: serialize and parse are inverses, binary safe") {
    program_key k = key_of(std::string("IL\0\x01\xff with\nnewlines", 20));
    k.options = {"-DX=1", "", "a b\nc"};
    k.specialization_constants = std::string("\0\0\x80?", 4);
    const std::string text = serialize(k);
    const auto back = parse(text);
    REQUIRE(back);
    CHECK(*back == k);
}

TEST_CASE("program_key: every field changes the canonical form") {
    const program_key base = key_of("source");
    const std::string form = serialize(base);
    std::vector<program_key> variants(8, base);
    variants[0].backend = "other";
    variants[1].device = "sm_80";
    variants[2].toolchain = "test-compiler 1.1";
    variants[3].source_kind = "spirv";
    variants[4].name = "other.txt";
    variants[5].options = {"-O3"};
    variants[6].specialization_constants = "x";
    variants[7].source = "sourcf";
    for (const auto& v : variants)
        CHECK(serialize(v) != form);
    // Moving bytes between fields must not give an equal form (lengths are part of it).
    program_key a = base, b = base;
    a.options = {"-O2", "-g"};
    b.options = {"-O2 -g"};
    CHECK(serialize(a) != serialize(b));
}

TEST_CASE("program_key: parse rejects other versions and damage") {
    const std::string text = serialize(key_of("source"));
    CHECK_FALSE(parse(""));
    CHECK_FALSE(parse("encore-program-key 999\n"));
    CHECK_FALSE(parse(text.substr(0, text.size() - 1)));
    CHECK_FALSE(parse(text + "x"));
    std::string bad_length = text;
    bad_length.replace(bad_length.find("backend 4:"), 10, "backend 9:");
    CHECK_FALSE(parse(bad_length));
    CHECK(key_hash(text).size() == 16);
    CHECK(key_hash(text) == key_hash(text));
    CHECK(key_hash(text) != key_hash(serialize(key_of("other"))));
}

TEST_CASE("entry format: round trip, and every truncation and every flipped bit is rejected") {
    const std::string key = serialize(key_of("kernel source"));
    const std::string file = encode(key, "warning: x", std::string("\x7f" "ELF binary\0bytes", 17));
    auto decoded = decode(file);
    REQUIRE(std::holds_alternative<entry>(decoded));
    CHECK(std::get<entry>(decoded).key == key);
    CHECK(std::get<entry>(decoded).log == "warning: x");
    CHECK(std::get<entry>(decoded).payload == std::string("\x7f" "ELF binary\0bytes", 17));

    for (std::size_t length = 0; length < file.size(); ++length)
        CHECK_MESSAGE(std::holds_alternative<std::string>(decode(file.substr(0, length))), "length " << length);
    CHECK(std::holds_alternative<std::string>(decode(file + '\0')));
    for (std::size_t byte = 0; byte < file.size(); ++byte)
        for (int bit = 0; bit < 8; ++bit) {
            std::string damaged = file;
            damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
            CHECK_MESSAGE(std::holds_alternative<std::string>(decode(damaged)), "byte " << byte << " bit " << bit);
        }
    CHECK(std::get<std::string>(decode("#!/bin/sh\necho not an entry\n")).find("not a cache entry") !=
          std::string::npos);
    CHECK(std::get<std::string>(decode(file.substr(0, 20))).find("truncated") != std::string::npos);
}

TEST_CASE("entry format: a header claiming huge sizes is rejected without overflow") {
    std::string file = encode("k", "", "p");
    for (int i = 16; i < 40; ++i)
        file[static_cast<std::size_t>(i)] = '\xff';
    CHECK(std::holds_alternative<std::string>(decode(file)));
}
