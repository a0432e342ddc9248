// libFuzzer harness for from_dlpack. The input is not a file but a DLTensor description built
// from the fuzz bytes (dtype code/bits/lanes, ndim, device, shape, strides, byte_offset, and
// NULL shape/strides/data flags) that points into a real, known buffer:
//
//   [0] dtype code  [1] bits  [2..3] lanes (LE)  [4] ndim (int8)  [5] device type  [6] device id (int8)
//   [7] flags: bit 0 NULL strides, bit 1 NULL data, bit 2 NULL shape, bits 3-7 data = buffer + n
//   [8..15] byte_offset (LE)  then per dim: shape[i], strides[i] (int64 LE; missing bytes are 0)
//
// DLPack carries no buffer size, so from_dlpack cannot know whether a description reaches
// outside the buffer; what it can check it must (dtype, lanes, ndim, sizes, strides, device,
// overflow, alignment, NULL pointers). The harness checks that:
//  - the import never crashes and throws nothing but tenet::error;
//  - a refused description leaves ownership with the caller (the deleter has not run);
//  - an accepted one has the geometry described, a storage of exactly the bytes the strides
//    reach (recomputed here in 128-bit arithmetic: no overflow), and its deleter runs exactly
//    once when the tensor dies;
//  - when an accepted description lies inside the buffer, every element is read through tenet
//    (AddressSanitizer checks that tenet reads nothing outside it).
// Build: clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined
//   -fno-sanitize-recover=undefined -Iinclude -I/usr/include/eigen3 -DTENET_HAVE_DLPACK=1
//   tests/fuzz/fuzz_dlpack.cpp -o /tmp/fuzz_dlpack
// Seeds: tests/fuzz/corpus/dlpack/ (tests/golden/gen_dlpack_corpus.py, from PyTorch's own exports).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tenet/tenet.hpp"
#include "tenet/interop/dlpack.hpp"

namespace {

constexpr size_t kBufferBytes = 4096;
alignas(64) unsigned char buffer[kBufferBytes];

int deleted = 0;

void expect(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "fuzz_dlpack: %s\n", what);
        std::abort();
    }
}

struct Reader {
    const uint8_t* data;
    size_t size, pos = 0;
    uint64_t take(size_t n) {  // little-endian; bytes past the end read as 0
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i, ++pos)
            if (pos < size) v |= uint64_t(data[pos]) << (8 * i);
        return v;
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    for (size_t k = 0; k < kBufferBytes; ++k) buffer[k] = static_cast<unsigned char>(k * 131 + 7);
    Reader r{data, size};
    DLManagedTensor m{};
    DLTensor& t = m.dl_tensor;
    t.dtype.code = static_cast<uint8_t>(r.take(1));
    t.dtype.bits = static_cast<uint8_t>(r.take(1));
    t.dtype.lanes = static_cast<uint16_t>(r.take(2));
    t.ndim = static_cast<int8_t>(r.take(1));
    const int device_type = static_cast<int>(r.take(1));  // any value, as a C producer may store
    std::memcpy(&t.device.device_type, &device_type, sizeof(device_type));
    t.device.device_id = static_cast<int8_t>(r.take(1));
    const auto flags = static_cast<uint8_t>(r.take(1));
    t.byte_offset = r.take(8);
    const size_t data_shift = flags >> 3;
    t.data = (flags & 2) ? nullptr : buffer + data_shift;
    // Up to 127 dims are described; from_dlpack reads only ndim of them (and refuses ndim > 64).
    int64_t shape[128] = {}, strides[128] = {};
    const int described = t.ndim > 0 ? t.ndim : 0;
    for (int i = 0; i < described; ++i) {
        shape[i] = static_cast<int64_t>(r.take(8));
        strides[i] = static_cast<int64_t>(r.take(8));
    }
    t.shape = (flags & 4) ? nullptr : shape;
    t.strides = (flags & 1) ? nullptr : strides;
    deleted = 0;
    m.manager_ctx = &deleted;
    m.deleter = [](DLManagedTensor* self) { ++*static_cast<int*>(self->manager_ctx); };

    tenet::TensorBase imported;
    try {
        imported = tenet::from_dlpack(&m);
    } catch (const tenet::error&) {
        expect(deleted == 0, "a refused description's deleter ran");
        return 0;
    }
    // Accepted: recompute what the description means, in 128-bit arithmetic.
    expect(t.ndim >= 0 && t.ndim <= 64 && t.dtype.lanes == 1, "accepted a bad ndim or lanes");
    expect(device_type == kDLCPU, "accepted a device this build cannot use");
    const int n = t.ndim;
    const auto& sizes = imported.sizes();
    const auto& got_strides = imported.strides();
    expect(static_cast<int>(sizes.size()) == n, "wrong ndim");
    __int128 numel = 1, last = 0;
    for (int i = 0; i < n; ++i) {
        expect(sizes[i] == shape[i] && shape[i] >= 0, "wrong or negative size");
        if (t.strides != nullptr) expect(got_strides[i] == strides[i] && strides[i] >= 0, "wrong stride");
        numel *= shape[i];
        last += static_cast<__int128>(shape[i] > 0 ? shape[i] - 1 : 0) * got_strides[i];
    }
    expect(numel == imported.numel(), "wrong element count");
    const __int128 itemsize = imported.itemsize();
    const __int128 bytes = numel == 0 ? 0 : (last + 1) * itemsize;
    expect(bytes <= INT64_MAX, "extent overflows int64");
    expect(static_cast<__int128>(imported.impl().storage->nbytes()) == bytes, "storage bytes differ from the extent");
    if (numel > 0) {
        expect(imported.impl().storage->data() == static_cast<char*>(t.data) + t.byte_offset, "wrong base address");
        // Inside the buffer: read every element through tenet (bounded work).
        const __int128 end = static_cast<__int128>(data_shift) + t.byte_offset + bytes;
        if (end <= static_cast<__int128>(kBufferBytes) && numel <= 4096) {
            double sum = 0;
            if (imported.dtype().is_complex())  // both parts
                tenet::visit_dtype_with_complex(imported.dtype(), [&]<class U>(tenet::dtype_t<U>) {
                    if constexpr (tenet::is_complex_v<U>)
                        sum = tenet::view_as_real(imported.as<U>()).template to<double>().sum().item();
                });
            else
                sum = imported.to<double>().sum().item();
            (void)sum;
        }
    }
    imported = tenet::TensorBase();
    expect(deleted == 1, "the deleter did not run exactly once");
    return 0;
}
