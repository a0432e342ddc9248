// libFuzzer harness for the .npy reader (io/npy.hpp): the bytes are a .npy file in memory.
// Only tenet::error may come out; any other exception, crash or sanitizer report is a bug.
// Build: clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
//        -Iinclude -I/usr/include/eigen3 tests/fuzz/fuzz_npy.cpp -o /tmp/fuzz_npy
// Seeds: tests/fuzz/corpus/npy/ (the valid ones written by tests/golden/gen_npy.py).
#include <tenet/io/npy.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const tenet::TensorBase t = tenet::detail::parse_npy(data, size, "fuzz.npy");
        // Touch every element through the typed view (reads the whole storage the geometry claims).
        tenet::visit_dtype(t.dtype(), [&]<class U>(tenet::dtype_t<U>) {
            volatile double sum = 0;
            for (const U& v : t.as<U>().to_vector()) sum = sum + tenet::convert<double>(v);
        });
    } catch (const tenet::error&) {
    }
    return 0;
}
