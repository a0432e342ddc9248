// libFuzzer harness for PyTorch's .pt files (io/pt.hpp, io/pickle.hpp, io/zip.hpp). Input that
// starts with "PK" is a whole .pt archive in memory (zip layer, records, pickle); anything else is
// a bare data.pkl, unpickled with storages of zeros (so that mutations reach the interpreter
// without first breaking the zip's CRC). The value is then walked (every tensor element read)
// and pickled again. Only tenet::error may come out; any other exception, crash, leak or
// sanitizer report is a bug.
// Build: clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
//        -DTENET_HAVE_LIBZIP=1 -Iinclude -I/usr/include/eigen3 tests/fuzz/fuzz_pt.cpp -o /tmp/fuzz_pt -lzip
// Seeds: tests/fuzz/corpus/pt/ (.pt files written by torch.save, their data.pkl, broken copies).
#include <tenet/io/pt.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace {

void walk(const tenet::IValue& v) {
    if (v.isTensor()) {
        const tenet::TensorBase& t = v.toTensor();
        if (t.numel() > (int64_t(1) << 20)) return;  // an expanded view of a small storage: valid, but too big to read here
        tenet::visit_dtype_with_complex(t.dtype(), [&]<class U>(tenet::dtype_t<U>) {
            volatile double sum = 0;
            for (const U& x : t.as<U>().to_vector()) {
                if constexpr (tenet::is_complex_v<U>) sum = sum + double(x.real()) + double(x.imag());
                else sum = sum + tenet::convert<double>(x);
            }
        });
    } else if (v.isList() || v.isTuple()) {
        for (const auto& x : v.isList() ? v.toList() : v.toTupleRef()) walk(x);
    } else if (v.isGenericDict()) {
        for (const auto& [k, x] : v.toGenericDict().items()) {
            walk(k);
            walk(x);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace tenet;
    try {
        IValue v;
        if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
            const detail::ZipReader zip(data, size, "fuzz.pt");
            v = detail::pt::load(zip);
        } else {
            auto loader = [](const std::string&, DType dtype, int64_t numel, const std::string&) {
                if (numel > (int64_t(1) << 16)) detail::fail<io_error>("fuzz: storage too large");
                auto s = std::make_shared<StorageImpl>(size_t(numel * dtype.itemsize()), Device(DeviceType::CPU));
                std::memset(s->data(), 0, s->nbytes());
                return s;
            };
            const std::string_view bytes(reinterpret_cast<const char*>(data), size);
            v = detail::pickle::Unpickler(bytes, "fuzz.pkl", loader).parse();
        }
        walk(v);
        int n = 0;
        auto storage_of = [&](const TensorBase&) {
            return detail::pickle::PickledStorage{std::to_string(n++), "cpu", 0};
        };
        volatile size_t len = detail::pickle::Pickler(storage_of).dump(v).size();
        (void)len;
    } catch (const tenet::error&) {
    }
    return 0;
}
