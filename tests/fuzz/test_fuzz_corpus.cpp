// The fuzzers' committed corpora, replayed as unit tests: every input in tests/fuzz/corpus/<format>/
// goes through its harness (tests/fuzz/fuzz_<format>.cpp, included below with its entry point
// renamed tenet_fuzz_<format>). A harness swallows tenet's own
// exceptions (the clear errors a bad file must raise); anything else that escapes fails the
// case, and under ASan + UBSan (CI's sanitizer stage) so does any bad read, leak or undefined
// behaviour. bench/fuzz.sh runs the fuzzers themselves.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../golden_data.hpp"

// Each harness is compiled here, its entry point renamed: one TU for the four, not four.
#define LLVMFuzzerTestOneInput tenet_fuzz_npy
#include "fuzz_npy.cpp"
#undef LLVMFuzzerTestOneInput
#if TENET_HAVE_LIBZIP
#define LLVMFuzzerTestOneInput tenet_fuzz_npz
#include "fuzz_npz.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput tenet_fuzz_pt
#include "fuzz_pt.cpp"
#undef LLVMFuzzerTestOneInput
#endif
#if TENET_HAVE_DLPACK
#define LLVMFuzzerTestOneInput tenet_fuzz_dlpack
#include "fuzz_dlpack.cpp"
#undef LLVMFuzzerTestOneInput
#endif

namespace {

void replay(const char* format, int (*harness)(const uint8_t*, size_t)) {
    namespace fs = std::filesystem;
    const fs::path dir = golden::golden_path(__FILE__, (std::string("corpus/") + format).c_str());
    INFO("corpus directory " << dir);
    REQUIRE(fs::is_directory(dir));
    std::vector<fs::path> inputs;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file()) inputs.push_back(entry.path());
    REQUIRE(!inputs.empty());
    for (const fs::path& input : inputs) {
        std::ifstream file(input, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        INFO("input " << input << " (" << bytes.size() << " bytes)");
        CHECK_NOTHROW(harness(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    }
}

}  // namespace

TEST_CASE("fuzz corpus: .npy inputs", "[fuzz][npy]") { replay("npy", tenet_fuzz_npy); }
#if TENET_HAVE_LIBZIP
TEST_CASE("fuzz corpus: .npz inputs", "[fuzz][npz]") { replay("npz", tenet_fuzz_npz); }
TEST_CASE("fuzz corpus: .pt inputs", "[fuzz][pt]") { replay("pt", tenet_fuzz_pt); }
#endif
#if TENET_HAVE_DLPACK
TEST_CASE("fuzz corpus: DLPack imports", "[fuzz][dlpack]") { replay("dlpack", tenet_fuzz_dlpack); }
#endif
