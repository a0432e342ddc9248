// libFuzzer harness for the .npz reader (io/npz.hpp): the bytes are an .npz archive in memory.
// Only tenet::error may come out; any other exception, crash or sanitizer report is a bug.
// Build: clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
//        -DTENET_HAVE_LIBZIP=1 -Iinclude -I/usr/include/eigen3 tests/fuzz/fuzz_npz.cpp -o /tmp/fuzz_npz -lzip
// Seeds: tests/fuzz/corpus/npz/ (the valid ones written by tests/golden/gen_npy.py).
#include <tenet/io/npz.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        for (const auto& entry : tenet::detail::parse_npz(data, size, "fuzz.npz")) {
            const tenet::TensorBase& t = entry.second;
            tenet::visit_dtype(t.dtype(), [&]<class U>(tenet::dtype_t<U>) {
                volatile double sum = static_cast<double>(entry.first.size());
                for (const U& v : t.as<U>().to_vector()) sum = sum + tenet::convert<double>(v);
            });
        }
    } catch (const tenet::error&) {
    }
    return 0;
}
