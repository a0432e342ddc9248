#pragma once
// quantile and nanquantile, as PyTorch's: the q-th quantiles of all elements or along a dim, with
// the five interpolation modes. Floating types; differentiable. On the host, one loop; on a
// device, composed of device ops (sort, count, gather, lerp), with the same arithmetic.
//
// Each row is sorted (NaN last), and q becomes a rank in the element type as PyTorch computes it:
// q * (n - 1), or q * (count of numbers - 1) for nanquantile; a row with a NaN has the last
// rank for quantile (its result is NaN). The rank is rounded for "lower", "higher" and
// "nearest" (half to even), and "linear" and "midpoint" interpolate between the two elements
// around it with PyTorch's lerp. The gradient goes to those two elements, weighted.

#include "tenet/config.hpp"
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tenet/ops/sort.hpp"

namespace tenet::inline TENET_ABI {

namespace detail {

enum class QuantileMode { Linear, Lower, Higher, Nearest, Midpoint };

inline QuantileMode quantile_mode(std::string_view interpolation, const char* op) {
    if (interpolation == "linear")
        return QuantileMode::Linear;
    if (interpolation == "lower")
        return QuantileMode::Lower;
    if (interpolation == "higher")
        return QuantileMode::Higher;
    if (interpolation == "nearest")
        return QuantileMode::Nearest;
    if (interpolation == "midpoint")
        return QuantileMode::Midpoint;
    fail<value_error>(op, "() interpolation must be one of linear, lower, higher, midpoint or nearest. Got ",
                      interpolation);
}

/// PyTorch's lerp: exact at both ends.
template <class T>
T lerp_value(T a, T b, T w) {
    return w < T(0.5) ? a + w * (b - a) : b - (b - a) * (T(1) - w);
}

/// quantile of a tensor on a device, composed of device ops: each line sorted (NaN last), each
/// q's rank from its line's count of numbers, computed in T as the host loop computes it, then
/// the elements at floor and ceil of the rank gathered and lerped. The gradient flows back
/// through gather and sort to the same two elements, with the same weights. `out` is the
/// result's shape; `qs` holds the q values on the host.
template <class T>
Tensor<T> quantile_composed(const Tensor<T>& input, const Tensor<T>& qs, bool q_scalar, const IntArray& out,
                            std::optional<int64_t> dim, QuantileMode mode, bool ignore_nan, const char* op) {
    const int64_t d = dim ? sort_dim(input, *dim, op) : 0;
    const Tensor<T> x = dim && input.dim() > 0 ? input : input.reshape({-1});
    const Tensor<T> sorted = sort(x, d).values;
    const int64_t n = x.size(d);
    // The count of numbers in each line (NaNs sort last), as T: [..., 1, ...].
    const Tensor<T> numbers = Tensor<int64_t>(logical_not(isnan(sorted)).sum(IntArray{d}, true)).template to<T>();
    IntArray each = out;  // one q's result shape
    if (!q_scalar) each.erase(0);
    std::vector<Tensor<T>> results;
    for (int64_t j = 0; j < qs.numel(); ++j) {
        const T qj = qs.data_ptr()[j];
        // (A where() of two numbers would compute in the default dtype, float32.)
        Tensor<T> rank = ignore_nan ? Tensor<T>(maximum(qj * (numbers - T(1)), T(0)))
                                    : Tensor<T>(where(numbers < T(n), T(n - 1), full_like(numbers, qj * T(n - 1))));
        if (mode == QuantileMode::Lower) rank = floor(rank);
        else if (mode == QuantileMode::Higher) rank = ceil(rank);
        else if (mode == QuantileMode::Nearest) rank = round(rank);  // half to even, as the host's nearbyint
        const Tensor<T> lo = floor(rank), hi = ceil(rank);
        const Tensor<T> a = gather(sorted, d, lo.template to<int64_t>());
        Tensor<T> r;
        if (mode == QuantileMode::Linear || mode == QuantileMode::Midpoint) {
            const Tensor<T> b = gather(sorted, d, hi.template to<int64_t>());
            r = mode == QuantileMode::Midpoint ? Tensor<T>(lerp(a, b, T(0.5))) : Tensor<T>(lerp(a, b, rank - lo));
        } else {
            r = a;
        }
        results.push_back(r.reshape(each));
    }
    return q_scalar ? results[0] : stack(results, 0);
}

template <class T>
Tensor<T> quantile_impl(const Tensor<T>& input, const Tensor<T>& q, bool q_scalar, std::optional<int64_t> dim,
                        bool keepdim, std::string_view interpolation, bool ignore_nan, const char* op) {
    if (input.is_meta()) fail_not_on_meta(op);
    if (input.device() != q.device())
        fail<device_error>(op, "() q tensor must be on the same device as the input tensor (got ", q.device(),
                           " and ", input.device(), ")");
    if constexpr (!FloatingElement<T>) {
        fail<dtype_error>(op, "() input tensor must be either float or double dtype, got ", input.dtype().name());
    } else {
        if (input.numel() == 0)
            fail<value_error>(op, "() input tensor must be non-empty");
        if (q.dim() > 1)
            fail<value_error>(op, "() q must be a scalar or 1D tensor, got a tensor of shape ", q.sizes());
        const QuantileMode mode = quantile_mode(interpolation, op);
        const Tensor<T> qs = q.cpu().contiguous();
        for (int64_t j = 0; j < qs.numel(); ++j) {
            const T v = qs.data_ptr()[j];
            if (!(v >= T(0) && v <= T(1)))
                fail<value_error>(op, "() q values must be in the range [0, 1], got ", convert<double>(v));
        }
        // Rows: the whole tensor (no dim), or the lines along dim.
        const int64_t d = dim ? sort_dim(input, *dim, op) : 0;
        const Tensor<T> x = dim ? input.contiguous() : input.reshape({-1});
        const DimSplit s = dim ? split_at_dim(x.sizes(), input.dim() == 0 ? 0 : d) : DimSplit{1, x.numel(), 1};
        IntArray out; // PyTorch's: the q dim (a tensor q), then the reduced shape
        if (!q_scalar)
            out.push_back(qs.numel());
        for (int64_t k = 0; k < input.dim(); ++k)
            if (dim && k != d)
                out.push_back(input.size(k));
            else if (keepdim)
                out.push_back(1);
        if (!input.is_cpu()) return quantile_composed(input, qs, q_scalar, out, dim, mode, ignore_nan, op);
        const int64_t nq = qs.numel(), rows = s.outer * s.inner;
        Tensor<T> result = empty<T>(out);
        // For the gradient: each result's two source elements (flat input indices) and the upper one's weight.
        std::vector<int64_t> below(static_cast<size_t>(nq * rows)), above(below.size());
        std::vector<T> weight(below.size());
        std::vector<packed_t<T>> keys(static_cast<size_t>(s.n));
        const T* xp = x.data_ptr();
        for_each_row(s, [&](int64_t row, int64_t n, int64_t stride) {
            for (int64_t k = 0; k < n; ++k)
                keys[static_cast<size_t>(k)] = pack(xp[row + k * stride], k, false);
            sort_packed(keys.data(), static_cast<size_t>(n));
            const int64_t numbers = count_numbers<T>(keys, n);
            const int64_t r = (row / (s.n * s.inner)) * s.inner + row % s.inner;
            auto at = [&](int64_t rank) { return row + packed_index(keys[static_cast<size_t>(rank)]) * stride; };
            for (int64_t j = 0; j < nq; ++j) {
                const T qj = qs.data_ptr()[j];
                T rank;
                if (ignore_nan)
                    rank = std::max(qj * static_cast<T>(numbers - 1), T(0));
                else
                    rank = numbers < n ? static_cast<T>(n - 1) : qj * static_cast<T>(n - 1);
                if (mode == QuantileMode::Lower)
                    rank = std::floor(rank);
                else if (mode == QuantileMode::Higher)
                    rank = std::ceil(rank);
                else if (mode == QuantileMode::Nearest)
                    rank = std::nearbyint(rank); // half to even, as torch.round
                const auto lo = static_cast<int64_t>(rank);
                const auto hi = static_cast<int64_t>(std::ceil(rank));
                const T w = mode == QuantileMode::Midpoint
                                ? T(0.5)
                                : (mode == QuantileMode::Linear ? rank - static_cast<T>(lo) : T(0));
                const size_t o = static_cast<size_t>(j * rows + r);
                below[o] = at(lo);
                above[o] = at(hi);
                weight[o] = w;
                const T a = xp[below[o]], b = xp[above[o]];
                result.data_ptr()[o] =
                    (mode == QuantileMode::Linear || mode == QuantileMode::Midpoint) ? lerp_value(a, b, w) : a;
            }
        });
        record_function(
            ignore_nan ? "NanquantileBackward0" : "QuantileBackward0", result, {},
            [below = std::move(below), above = std::move(above), weight = std::move(weight), sizes = input.sizes(),
             xsizes = x.sizes()](const TensorBase& grad) {
                const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
                Tensor<T> dx = zeros<T>(xsizes);
                T* p = dx.data_ptr();
                for (size_t o = 0; o < below.size(); ++o) {
                    const T go = g.data_ptr()[o];
                    p[below[o]] += go * (T(1) - weight[o]);
                    p[above[o]] += go * weight[o];
                }
                return std::array<TensorBase, 1>{dx.view(sizes)};
            },
            input);
        return result;
    }
}

} // namespace detail

/// torch.quantile(x, q, dim = nullopt, keepdim = false, interpolation = "linear"): the q-th
/// quantile (q in [0, 1]) of all elements, or of each line along dim. interpolation: "linear",
/// "lower", "higher", "nearest" or "midpoint". NaN where the line has a NaN. Floating inputs.
template <class T>
Tensor<T> quantile(const Tensor<T>& x, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear") {
    return detail::quantile_impl(x, full<T>({}, q, x.device()), true, dim, keepdim, interpolation, false, "quantile");
}
/// torch.quantile with a 1-D tensor of q values (x's dtype): their quantiles, stacked along a
/// new first dim.
template <class T>
Tensor<T> quantile(const Tensor<T>& x, const Tensor<T>& q, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false, std::string_view interpolation = "linear") {
    return detail::quantile_impl(x, q, q.dim() == 0, dim, keepdim, interpolation, false, "quantile");
}
/// torch.nanquantile: quantile of the values that are not NaN (NaN where a line has none).
template <class T>
Tensor<T> nanquantile(const Tensor<T>& x, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                      std::string_view interpolation = "linear") {
    return detail::quantile_impl(x, full<T>({}, q, x.device()), true, dim, keepdim, interpolation, true, "nanquantile");
}
template <class T>
Tensor<T> nanquantile(const Tensor<T>& x, const Tensor<T>& q, std::optional<int64_t> dim = std::nullopt,
                      bool keepdim = false, std::string_view interpolation = "linear") {
    return detail::quantile_impl(x, q, q.dim() == 0, dim, keepdim, interpolation, true, "nanquantile");
}

} // namespace tenet::inline TENET_ABI
