#pragma once
// Creation functions, named and typed as in LibTorch. The element type comes from a
// dtype tag (`zeros({2, 3}, kFloat64)`), a template argument (`zeros<double>({2, 3})`)
// or, where PyTorch infers it, from the values (`tensor({1, 2})` is int64,
// `tensor({1.5})` float32, `full({2}, 7)` int64, `arange(5)` int64, `arange(0.0, 1.0, 0.1)` float32).

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <vector>

#include "tenet/core/meta.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {
/// `t` with the names of options.names() (PyTorch's names=); t itself when they name nothing.
template <class T>
Tensor<T> named_as(Tensor<T> t, const TensorOptions& options) {
    if (options.names()) set_names(t.impl(), *options.names());
    return t;
}
/// `t`, built on the host, on options' device: creation functions whose values are computed
/// element by element on the host (literals) move them once, as torch.tensor does. The ranges
/// answer the meta device before computing anything. Names it as options say (names=), if they
/// name anything.
template <class T>
Tensor<T> on_device(Tensor<T> t, TensorOptions options) {
    if (options.device().is_cpu()) return named_as(std::move(t), options);
    if (options.device().is_meta()) return named_as(meta_result<T>(t.sizes()), options);
    Tensor<T> out(make_contiguous_impl(t.sizes(), dtype_of<T>, options.device()));
    out.copy_data_(t);
    return named_as(std::move(out), options);
}
}  // namespace detail

// ---- Uninitialised, constant and identity tensors ----------------------------------

/// A tensor of the given sizes whose elements are not initialised.
template <class T = float>
Tensor<T> empty(const IntArray& sizes, TensorOptions options = {}) {
    detail::check_device_supported(options.device(), "empty");
    return detail::named_as(Tensor<T>(detail::make_contiguous_impl(sizes, dtype_of<T>, options.device())), options);
}
template <class T>
Tensor<T> empty(const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return empty<T>(sizes, options);
}
/// An uninitialised tensor with explicit strides (its storage spans every element they reach).
template <class T = float>
Tensor<T> empty_strided(const IntArray& sizes, const IntArray& strides, TensorOptions options = {}) {
    detail::check_device_supported(options.device(), "empty_strided");
    if (sizes.size() != strides.size())
        detail::fail<shape_error>("empty_strided: sizes ", sizes, " and strides ", strides,
                                  " must have the same length");
    for (size_t i = 0; i < sizes.size(); ++i)
        if (sizes[i] < 0 || strides[i] < 0)
            detail::fail<shape_error>("empty_strided: sizes ", sizes, " and strides ", strides,
                                      " must be non-negative");
    return detail::named_as(Tensor<T>(detail::make_dense_impl(sizes, strides, dtype_of<T>, options.device())), options);
}

/// A tensor filled with `value`; unless T is given, the element type is inferred from
/// the value as PyTorch does (int -> int64, floating -> float32, bool -> bool).
template <class T = void, Scalar V>
auto full(const IntArray& sizes, V value, TensorOptions options = {}) {
    using R = std::conditional_t<std::is_void_v<T>, default_element_t<V>, T>;
    Tensor<R> t = empty<R>(sizes, options);
    t.fill_(value);
    return t;
}
template <class T, Scalar V>
Tensor<T> full(const IntArray& sizes, V value, dtype_t<T>, TensorOptions options = {}) {
    return full<T, V>(sizes, value, options);
}

template <class T = float>
Tensor<T> zeros(const IntArray& sizes, TensorOptions options = {}) {
    return full<T>(sizes, 0, options);
}
template <class T>
Tensor<T> zeros(const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return zeros<T>(sizes, options);
}
template <class T = float>
Tensor<T> ones(const IntArray& sizes, TensorOptions options = {}) {
    return full<T>(sizes, 1, options);
}
template <class T>
Tensor<T> ones(const IntArray& sizes, dtype_t<T>, TensorOptions options = {}) {
    return ones<T>(sizes, options);
}

/// A 2-D tensor with ones on the diagonal: n x n, or n x m.
template <class T = float>
Tensor<T> eye(int64_t n, int64_t m, TensorOptions options = {}) {
    if (n < 0 || m < 0) detail::fail<shape_error>("eye: n and m must be non-negative, got n = ", n, ", m = ", m);
    detail::check_device_supported(options.device(), "eye");
    if (options.device().is_meta()) return detail::named_as(detail::meta_result<T>({n, m}), options);
    Tensor<T> t = zeros<T>({n, m});
    for (int64_t i = 0; i < std::min(n, m); ++i) t(i, i) = convert<T>(1);
    return detail::on_device(t, options);
}
template <class T = float>
Tensor<T> eye(int64_t n, TensorOptions options = {}) {
    return eye<T>(n, n, options);
}
template <class T>
Tensor<T> eye(int64_t n, dtype_t<T>, TensorOptions options = {}) {
    return eye<T>(n, n, options);
}
template <class T>
Tensor<T> eye(int64_t n, int64_t m, dtype_t<T>, TensorOptions options = {}) {
    return eye<T>(n, m, options);
}

// ---- *_like: same sizes, device and (unless given) element type; dense layouts keep
// their memory order, as PyTorch's preserve_format does. -------------------------------

template <class T = void, class U>
auto empty_like(const Tensor<U>& t, TensorOptions options) {
    using R = std::conditional_t<std::is_void_v<T>, U, T>;
    detail::check_device_supported(options.device(), "empty_like");
    Tensor<R> out(detail::make_dense_impl(t.sizes(), detail::dense_strides_like(t.sizes(), t.strides()),
                                          dtype_of<R>, options.device()));
    if (t.has_names() && !options.names()) detail::set_names(out.impl(), t.names());  // PyTorch keeps t's names
    return detail::named_as(std::move(out), options);
}
template <class T = void, class U>
auto empty_like(const Tensor<U>& t) {
    return empty_like<T>(t, TensorOptions(t.device()));
}
template <class T, class U>
Tensor<T> empty_like(const Tensor<U>& t, dtype_t<T>) {
    return empty_like<T>(t);
}
template <class T = void, class U, Scalar V>
auto full_like(const Tensor<U>& t, V value) {
    auto out = empty_like<T>(t);
    out.fill_(value);
    return out;
}
template <class T, class U, Scalar V>
Tensor<T> full_like(const Tensor<U>& t, V value, dtype_t<T>) {
    return full_like<T>(t, value);
}
template <class T = void, class U>
auto zeros_like(const Tensor<U>& t) {
    return full_like<T>(t, 0);
}
template <class T, class U>
Tensor<T> zeros_like(const Tensor<U>& t, dtype_t<T>) {
    return full_like<T>(t, 0);
}
template <class T = void, class U>
auto ones_like(const Tensor<U>& t) {
    return full_like<T>(t, 1);
}
template <class T, class U>
Tensor<T> ones_like(const Tensor<U>& t, dtype_t<T>) {
    return full_like<T>(t, 1);
}

// ---- Ranges --------------------------------------------------------------------------

namespace detail {
template <class T>
Tensor<T> arange_impl(double start, double end, double step, TensorOptions options) {
    if (!std::isfinite(start) || !std::isfinite(end))
        fail<value_error>("arange: unsupported range: ", start, " -> ", end);
    // As PyTorch, integral dtypes check the step after truncating it to an integer
    // (their accumulate type is int64), so arange(0, 5, 0.5, kInt32) is refused.
    const double checked_step = std::is_integral_v<T> ? std::trunc(step) : step;
    if (checked_step == 0) fail<value_error>("arange: step must be nonzero (got ", step, ")");
    if ((step > 0 && end < start) || (step < 0 && end > start))
        fail<value_error>("arange: upper bound and larger bound inconsistent with step sign (start ", start,
                          ", end ", end, ", step ", step, ")");
    // PyTorch counts int64 ranges with the bounds and step truncated to integers
    // (arange(0, 5, 1.5, kInt64) has 5 elements); every other dtype counts in double.
    const double count = std::is_same_v<T, int64_t>
                             ? std::ceil((std::trunc(end) - std::trunc(start)) / std::trunc(step))
                             : std::ceil((end - start) / step);
    if (count > static_cast<double>(std::numeric_limits<int64_t>::max() / 2))
        fail<value_error>("arange: the range ", start, " -> ", end, " with step ", step, " is too large");
    check_device_supported(options.device(), "arange");
    if (options.device().is_meta()) return named_as(meta_result<T>({static_cast<int64_t>(count)}), options);
    Tensor<T> t = empty<T>({static_cast<int64_t>(count)});
    T* p = t.data_ptr();
    for (int64_t i = 0; i < t.numel(); ++i) {
        if constexpr (std::is_integral_v<T>)
            p[i] = static_cast<T>(static_cast<int64_t>(start) + static_cast<int64_t>(step) * i);
        else
            p[i] = convert<T>(start + step * static_cast<double>(i));
    }
    return on_device(t, options);
}
template <class... A>
using arange_element_t = std::conditional_t<(std::is_integral_v<A> && ...), int64_t, float>;
}  // namespace detail

/// [0, end) with step 1. Integer arguments give int64, floating ones float32.
template <Scalar E>
auto arange(E end, TensorOptions options = {}) {
    return detail::arange_impl<detail::arange_element_t<E>>(0.0, static_cast<double>(end), 1.0, options);
}
template <Scalar S, Scalar E>
auto arange(S start, E end, TensorOptions options = {}) {
    return detail::arange_impl<detail::arange_element_t<S, E>>(static_cast<double>(start), static_cast<double>(end),
                                                               1.0, options);
}
template <Scalar S, Scalar E, Scalar St>
auto arange(S start, E end, St step, TensorOptions options = {}) {
    return detail::arange_impl<detail::arange_element_t<S, E, St>>(
        static_cast<double>(start), static_cast<double>(end), static_cast<double>(step), options);
}
template <class T, Scalar E>
Tensor<T> arange(E end, dtype_t<T>, TensorOptions options = {}) {
    return detail::arange_impl<T>(0.0, static_cast<double>(end), 1.0, options);
}
template <class T, Scalar S, Scalar E>
Tensor<T> arange(S start, E end, dtype_t<T>, TensorOptions options = {}) {
    return detail::arange_impl<T>(static_cast<double>(start), static_cast<double>(end), 1.0, options);
}
template <class T, Scalar S, Scalar E, Scalar St>
Tensor<T> arange(S start, E end, St step, dtype_t<T>, TensorOptions options = {}) {
    return detail::arange_impl<T>(static_cast<double>(start), static_cast<double>(end), static_cast<double>(step),
                                  options);
}

/// `steps` evenly spaced values from start to end inclusive (float32 unless a dtype is given).
template <class T = float>
Tensor<T> linspace(double start, double end, int64_t steps, TensorOptions options = {}) {
    if (steps < 0) detail::fail<value_error>("linspace: number of steps must be non-negative, got ", steps);
    detail::check_device_supported(options.device(), "linspace");
    if (options.device().is_meta()) return detail::named_as(detail::meta_result<T>({steps}), options);
    Tensor<T> t = empty<T>({steps});
    T* p = t.data_ptr();
    if (steps == 1) p[0] = convert<T>(start);
    if (steps > 1) {
        // As PyTorch: the first half counts up from start, the second half down from end,
        // so both ends are exact.
        // The arithmetic runs in the element type for float and double (PyTorch's step_t),
        // in double otherwise.
        using step_t = std::conditional_t<std::is_same_v<T, float>, float, double>;
        const step_t first = static_cast<step_t>(start), last = static_cast<step_t>(end);
        const step_t step = (last - first) / static_cast<step_t>(steps - 1);
        const int64_t halfway = steps / 2;
        for (int64_t i = 0; i < steps; ++i)
            p[i] = convert<T>(i < halfway ? first + step * static_cast<step_t>(i)
                                          : last - step * static_cast<step_t>(steps - i - 1));
    }
    return detail::on_device(t, options);
}
template <class T>
Tensor<T> linspace(double start, double end, int64_t steps, dtype_t<T>, TensorOptions options = {}) {
    return linspace<T>(start, end, steps, options);
}

/// base ** linspace(start, end, steps).
template <class T = float>
Tensor<T> logspace(double start, double end, int64_t steps, double base = 10.0, TensorOptions options = {}) {
    detail::check_device_supported(options.device(), "logspace");
    if (options.device().is_meta()) return detail::named_as(detail::meta_result<T>({steps}), options);
    Tensor<double> exponents = linspace<double>(start, end, steps);
    Tensor<T> t = empty<T>({steps});
    for (int64_t i = 0; i < steps; ++i) t.data_ptr()[i] = convert<T>(std::pow(base, exponents.data_ptr()[i]));
    return detail::on_device(t, options);
}
template <class T>
Tensor<T> logspace(double start, double end, int64_t steps, double base, dtype_t<T>, TensorOptions options = {}) {
    return logspace<T>(start, end, steps, base, options);
}

// ---- From data ----------------------------------------------------------------------

namespace detail {
/// Shape of a nested initializer list, checking that it is not ragged.
template <class V>
void nested_shape(const V&, size_t, IntArray&) {}
template <class V>
void nested_shape(std::initializer_list<V> list, size_t depth, IntArray& shape) {
    if (shape.size() == depth) {
        shape.push_back(static_cast<int64_t>(list.size()));
        if (list.size() > 0) nested_shape(*list.begin(), depth + 1, shape);
    }
    if (static_cast<int64_t>(list.size()) != shape[depth])
        fail<shape_error>("tensor: the nested list is ragged: expected a sequence of length ", shape[depth],
                          " at dim ", depth, " (got ", list.size(), ")");
    for (const auto& item : list) nested_shape(item, depth + 1, shape);
}
template <class T, class V>
void nested_fill(const V& v, T*& out) {
    *out++ = convert<T>(v);
}
template <class T, class V>
void nested_fill(std::initializer_list<V> list, T*& out) {
    for (const auto& item : list) nested_fill<T>(item, out);
}
template <class T, class V, class List>
auto tensor_from_list(const List& list, TensorOptions options) {
    using R = std::conditional_t<std::is_void_v<T>, default_element_t<V>, T>;
    IntArray shape;
    nested_shape(list, 0, shape);
    check_device_supported(options.device(), "tensor");
    Tensor<R> t = empty<R>(shape);
    R* out = t.data_ptr();
    nested_fill<R>(list, out);
    return on_device(t, options);
}
}  // namespace detail

/// A 0-d tensor holding `value` (int -> int64, floating -> float32, bool -> bool unless T is given).
template <class T = void, Scalar V>
auto tensor(V value, TensorOptions options = {}) {
    using R = std::conditional_t<std::is_void_v<T>, default_element_t<V>, T>;
    detail::check_device_supported(options.device(), "tensor");
    Tensor<R> t = empty<R>({});
    *t.data_ptr() = convert<R>(value);
    return detail::on_device(t, options);
}

// Nested initializer lists up to 6 deep: tensor({{1, 2}, {3, 4}}). A ragged list throws
// shape_error. The element type follows PyTorch's inference unless T (or a dtype) is given.
// (The parameter types are spelled out: Clang 14 does not deduce V through alias templates
// of nested initializer lists.)
#define TENET_TENSOR_FROM_LIST(LIST)                                                          \
    template <class T = void, Scalar V>                                                       \
    auto tensor(LIST values, TensorOptions options = {}) {                                    \
        return detail::tensor_from_list<T, V>(values, options);                               \
    }                                                                                         \
    template <class T, Scalar V>                                                              \
    Tensor<T> tensor(LIST values, dtype_t<T>, TensorOptions options = {}) {                   \
        return detail::tensor_from_list<T, V>(values, options);                               \
    }
#define TENET_IL std::initializer_list
TENET_TENSOR_FROM_LIST(TENET_IL<V>)
TENET_TENSOR_FROM_LIST(TENET_IL<TENET_IL<V>>)
TENET_TENSOR_FROM_LIST(TENET_IL<TENET_IL<TENET_IL<V>>>)
TENET_TENSOR_FROM_LIST(TENET_IL<TENET_IL<TENET_IL<TENET_IL<V>>>>)
TENET_TENSOR_FROM_LIST(TENET_IL<TENET_IL<TENET_IL<TENET_IL<TENET_IL<V>>>>>)
TENET_TENSOR_FROM_LIST(TENET_IL<TENET_IL<TENET_IL<TENET_IL<TENET_IL<TENET_IL<V>>>>>>)
#undef TENET_IL
#undef TENET_TENSOR_FROM_LIST

/// Copies a buffer of values into a tensor of the given shape (1-D when omitted).
/// Unlike literals, a buffer keeps its own element type unless T is given
/// (as torch.tensor(ndarray) keeps the array's dtype).
template <class T = void, Scalar V>
auto tensor(const std::vector<V>& values, const IntArray& shape, TensorOptions options = {}) {
    using R = std::conditional_t<std::is_void_v<T>, std::conditional_t<Element<V>, V, default_element_t<V>>, T>;
    if (product(shape) != static_cast<int64_t>(values.size()))
        detail::fail<shape_error>("tensor: shape ", shape, " is invalid for input of size ", values.size());
    detail::check_device_supported(options.device(), "tensor");
    Tensor<R> t = empty<R>(shape);
    R* out = t.data_ptr();
    for (const V& v : values) *out++ = convert<R>(v);
    return detail::on_device(t, options);
}
template <class T = void, Scalar V>
auto tensor(const std::vector<V>& values, TensorOptions options = {}) {
    return tensor<T>(values, IntArray{static_cast<int64_t>(values.size())}, options);
}

/// Wraps external memory without copying. The caller keeps `data` alive until the
/// last view is gone; `deleter` (optional) is called with `data` when that happens.
template <Element T>
Tensor<T> from_blob(T* data, const IntArray& sizes, const IntArray& strides,
                    std::function<void(void*)> deleter = {}, TensorOptions options = {}) {
    if (sizes.size() != strides.size())
        detail::fail<shape_error>("from_blob: sizes ", sizes, " and strides ", strides, " must have the same length");
    const int64_t extent = detail::storage_extent(sizes, strides, 0);
    auto impl = TensorImplPtr::make();
    impl->storage = detail::make_pooled<StorageImpl>(static_cast<void*>(data), static_cast<size_t>(extent) * sizeof(T),
                                                  options.device(), std::move(deleter));
    impl->set_geometry(sizes, strides);
    impl->dtype = dtype_of<T>;
    return Tensor<T>(std::move(impl));
}
template <Element T>
Tensor<T> from_blob(T* data, const IntArray& sizes, std::function<void(void*)> deleter = {},
                    TensorOptions options = {}) {
    return from_blob(data, sizes, detail::contiguous_strides(sizes), std::move(deleter), options);
}

}  // namespace tenet
