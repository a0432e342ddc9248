#pragma once
// Sorting and scans along a dim on a device (declared in backend/device/device_order.hpp).
//
// A sort along a dim is a segmented sort: every element's order key (ops/sort.hpp's order_key,
// the unsigned bits whose order is PyTorch's) is sorted stably with its flat position in row
// order, then the positions are sorted stably again by their row. Two stable sorts of plain
// integers (CUB's radix sort on CUDA, Thrust's merge sort on its OpenMP system) leave each row
// in key order with ties in index order: the host's packed (key, index) order. A scan is one
// inclusive_scan_by_key over the rows, each position read through its row's stride.

#include "tenet/config.hpp"
#include <cstdint>

#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include "tenet/cuda/config.cuh"
#include "tenet/backend/device/device_order.hpp"
#include "tenet/ops/scan.hpp"
#include "tenet/ops/sort.hpp"

namespace tenet::inline TENET_ABI::kernels {

/// Position j in row order (row j / n, its (j % n)-th element; from the end when `reverse`) ->
/// its offset in a contiguous tensor split as (outer, n, inner).
struct RowOrderOffset {
    int64_t n, inner;
    bool reverse;
    TENET_HD int64_t operator()(int64_t j) const {
        const int64_t row = j / n, k = reverse ? n - 1 - j % n : j % n;
        return (row / inner) * n * inner + k * inner + row % inner;
    }
};

/// Position j in row order -> its element's order key (inverted for descending).
template <class T>
struct OrderKeyAt {
    const T* x;
    RowOrderOffset at;
    detail::order_key_t<T> flip;
    TENET_HD detail::order_key_t<T> operator()(int64_t j) const { return detail::order_key(x[at(j)]) ^ flip; }
};

struct RowOf {
    int64_t n;
    TENET_HD int64_t operator()(int64_t j) const { return j / n; }
};

/// Sorted position j: its value and index, from the element the sort put there (perm[j]).
template <class T>
struct GatherSorted {
    const T* x;
    const int64_t* perm;
    T* values;
    int64_t* indices;
    RowOrderOffset at;
    TENET_HD void operator()(int64_t j) const {
        const int64_t from = perm[j];
        values[at(j)] = x[at(from)];
        indices[at(j)] = from % at.n;
    }
};

/// A scan's input read at position j of row order, as the accumulator type A (wrapping integers:
/// their two's complement bits in uint64).
template <class A, class T>
struct ScanAcc {
    TENET_HD A operator()(T v) const {
        if constexpr (FloatingElement<A>) return convert<A>(v);
        else return static_cast<A>(convert<int64_t>(v));
    }
};
template <class A, class T>
struct ScanLoad {
    const T* x;
    RowOrderOffset at;
    TENET_HD A operator()(int64_t j) const { return ScanAcc<A, T>{}(x[at(j)]); }
};
/// An accumulated value as the result type.
template <class A, class R>
struct ScanConvert {
    TENET_HD R operator()(A a) const {
        if constexpr (FloatingElement<A>) return convert<R>(a);
        else return convert<R>(static_cast<int64_t>(a));
    }
};
template <class A, class R>
struct ScanStore {
    const A* acc;
    R* y;
    RowOrderOffset at;
    TENET_HD void operator()(int64_t j) const { y[at(j)] = ScanConvert<A, R>{}(acc[j]); }
};

/// Scratch device memory for `count` elements of A (kept alive by the returned tensor).
template <class A>
TensorBase scratch(int64_t count, Device device, A*& p) {
    TensorBase t(detail::make_contiguous_impl(IntArray{count * static_cast<int64_t>(sizeof(A))}, dtype_of<uint8_t>, device));
    p = static_cast<A*>(t.impl().storage->data());
    return t;
}

}  // namespace tenet::kernels

namespace tenet::inline TENET_ABI::detail {

template <class F>
void device_for_each_index(int64_t n, const F& f, const char* what) {
    kernels::for_each_index(n, f, what);
}

template <class T>
void device_sort_rows(const Tensor<T>& x, const Tensor<T>& values, const Tensor<int64_t>& indices, const DimSplit& s,
                      bool descending) {
    using K = order_key_t<T>;
    const int64_t total = s.outer * s.n * s.inner;
    if (total == 0) return;
    const Device device = x.device();
    const kernels::RowOrderOffset at{s.n, s.inner, false};
    K* keys;
    int64_t *perm, *rows;
    const TensorBase keep_keys = kernels::scratch(total, device, keys), keep_perm = kernels::scratch(total, device, perm);
    const auto positions = thrust::counting_iterator<int64_t>(0);
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    thrust::transform(thrust::device, positions, positions + total, thrust::device_pointer_cast(keys),
                      kernels::OrderKeyAt<T>{x.data_ptr(), at, descending ? K(~K(0)) : K(0)});
    thrust::sequence(thrust::device, thrust::device_pointer_cast(perm), thrust::device_pointer_cast(perm + total));
    thrust::stable_sort_by_key(thrust::device, thrust::device_pointer_cast(keys),
                               thrust::device_pointer_cast(keys + total), thrust::device_pointer_cast(perm));
    if (total > s.n) {  // more than one row: regroup the positions by row, keeping their order
        const TensorBase keep_rows = kernels::scratch(total, device, rows);
        thrust::transform(thrust::device, thrust::device_pointer_cast(perm), thrust::device_pointer_cast(perm + total),
                          thrust::device_pointer_cast(rows), kernels::RowOf{s.n});
        thrust::stable_sort_by_key(thrust::device, thrust::device_pointer_cast(rows),
                                   thrust::device_pointer_cast(rows + total), thrust::device_pointer_cast(perm));
    }
    kernels::check_launch("sort");
    kernels::for_each_index(total, kernels::GatherSorted<T>{x.data_ptr(), perm, values.data_ptr(), indices.data_ptr(), at},
                            "sort");
    kernels::check_launch("sort");
    device_backend(device, "sort").synchronize(device.index());  // the scratch is freed on return
}

template <class R, class T>
void device_scan_rows(const Tensor<T>& x, const Tensor<R>& y, const DimSplit& s, ScanKind kind, bool reverse) {
    using A = std::conditional_t<FloatingElement<R>, double, uint64_t>;
    const int64_t total = s.outer * s.n * s.inner;
    if (total == 0) return;
    const Device device = x.device();
    const kernels::RowOrderOffset at{s.n, s.inner, reverse};
    const auto positions = thrust::counting_iterator<int64_t>(0);
    const auto in = thrust::make_transform_iterator(positions, kernels::ScanLoad<A, T>{x.data_ptr(), at});
    kernels::launch_counter().fetch_add(1, std::memory_order_relaxed);
    const bool one_row = total == s.n;
    if (one_row && !reverse) {  // a plain scan over x, no keys, converted on the way out (no scratch)
        const auto flat_in = thrust::make_transform_iterator(thrust::device_pointer_cast(x.data_ptr()),
                                                        kernels::ScanAcc<A, T>{});
        const auto out = thrust::make_transform_output_iterator(thrust::device_pointer_cast(y.data_ptr()),
                                                                kernels::ScanConvert<A, R>{});
        if (kind == ScanKind::Sum)
            thrust::inclusive_scan(thrust::device, flat_in, flat_in + total, out, thrust::plus<A>());
        else
            thrust::inclusive_scan(thrust::device, flat_in, flat_in + total, out, thrust::multiplies<A>());
        kernels::check_launch(kind == ScanKind::Sum ? "cumsum" : "cumprod");
        return;
    }
    A* acc;
    const TensorBase keep = kernels::scratch(total, device, acc);
    const auto rows = thrust::make_transform_iterator(positions, kernels::RowOf{s.n});
    if (one_row && kind == ScanKind::Sum)
        thrust::inclusive_scan(thrust::device, in, in + total, thrust::device_pointer_cast(acc), thrust::plus<A>());
    else if (one_row)
        thrust::inclusive_scan(thrust::device, in, in + total, thrust::device_pointer_cast(acc),
                               thrust::multiplies<A>());
    else if (kind == ScanKind::Sum)
        thrust::inclusive_scan_by_key(thrust::device, rows, rows + total, in, thrust::device_pointer_cast(acc),
                                      thrust::equal_to<int64_t>(), thrust::plus<A>());
    else
        thrust::inclusive_scan_by_key(thrust::device, rows, rows + total, in, thrust::device_pointer_cast(acc),
                                      thrust::equal_to<int64_t>(), thrust::multiplies<A>());
    kernels::check_launch(kind == ScanKind::Sum ? "cumsum" : "cumprod");
    kernels::for_each_index(total, kernels::ScanStore<A, R>{acc, y.data_ptr(), at}, "scan");
    device_backend(device, "scan").synchronize(device.index());
}

}  // namespace tenet::detail
