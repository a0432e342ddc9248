#pragma once
// The rest of PyTorch's product family on top of the GEMM: outer/ger, the fused
// "beta * input + alpha * product" forms addmm, addmv, addr, addbmm, baddbmm (LibTorch's
// argument order: input, operands, then beta and alpha), cross (and linalg::cross),
// linalg::multi_dot (cheapest multiplication order), and trace, diag, tril, triu.
//
// In the add* forms beta = 0 ignores the input entirely (NaN and inf in it do not propagate),
// as in PyTorch; integer tensors take integral beta and alpha only. Each add* result is one
// autograd node (autograd/products.hpp); outer is a recorded broadcast multiply (MulBackward0).

#include "tenet/config.hpp"
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "tenet/expr/binary_ops.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// Fills `out` with beta * input (input broadcast to out's shape), or leaves it for a beta = 0 GEMM.
template <class T>
void prefill(Tensor<T>& out, const Tensor<T>& input, T beta, const char* op) {
    const IntArray& want = out.sizes();
    bool fits = input.dim() <= out.dim();
    for (int64_t i = 1; fits && i <= input.dim(); ++i) {
        const int64_t s = input.sizes()[input.dim() - i];
        fits = s == 1 || s == want[want.size() - static_cast<size_t>(i)];
    }
    if (!fits)
        fail<shape_error>(op, ": the input of shape ", input.sizes(), " cannot be broadcast to the result shape ", want);
    if (beta == T(0)) return;
    out.copy_(input);
    // The GEMM then scales by beta; nothing more to do here.
}

template <class T>
void check_vector(const Tensor<T>& t, const char* op, const char* name) {
    if (t.dim() != 1)
        fail<shape_error>(op, ": expected ", name, " to be a 1-D tensor, but got a ", t.dim(), "-D tensor of shape ",
                          t.sizes());
}

template <class T>
Tensor<T> addmm_impl(const Tensor<T>& input, const Tensor<T>& a, const Tensor<T>& b, T beta, T alpha,
                     const char* op) {
    if (a.dim() != 2 || b.dim() != 2)
        fail<shape_error>(op, ": expected 2-D matrices, got shapes ", a.sizes(), " and ", b.sizes());
    if (a.sizes()[1] != b.sizes()[0])
        fail<shape_error>(op, ": mat1 and mat2 shapes cannot be multiplied (", dims_x(a.sizes()), " and ",
                          dims_x(b.sizes()), ")");
    Tensor<T> out = new_tensor<T>({a.sizes()[0], b.sizes()[1]});
    prefill(out, input, beta, op);
    gemm<T>(a.sizes()[0], b.sizes()[1], a.sizes()[1], alpha, mat_ref(a, a.storage_offset(), 0, 1),
            mat_ref(b, b.storage_offset(), 0, 1), beta, out.data_ptr(), b.sizes()[1]);
    return out;
}

template <class T>
Tensor<T> addmv_impl(const Tensor<T>& input, const Tensor<T>& a, const Tensor<T>& v, T beta, T alpha,
                     const char* op) {
    if (a.dim() != 2 || v.dim() != 1)
        fail<shape_error>(op, ": vector + matrix @ vector expected, got ", input.dim(), ", ", a.dim(), ", ", v.dim());
    if (a.sizes()[1] != v.sizes()[0])
        fail<shape_error>(op, ": size mismatch, got input (", dims_x(input.sizes()), "), mat (", dims_x(a.sizes()),
                          "), vec (", v.sizes()[0], ")");
    Tensor<T> out = new_tensor<T>({a.sizes()[0]});
    prefill(out, input, beta, op);
    MatRef<T> vm{data_at(v, v.storage_offset()), v.sizes()[0], 1, v.strides()[0], 1};
    gemm<T>(a.sizes()[0], 1, a.sizes()[1], alpha, mat_ref(a, a.storage_offset(), 0, 1), vm, beta, out.data_ptr(), 1);
    return out;
}

template <class T>
Tensor<T> addr_impl(const Tensor<T>& input, const Tensor<T>& u, const Tensor<T>& v, T beta, T alpha,
                    const char* op) {
    check_vector(u, op, "vec1");
    check_vector(v, op, "vec2");
    const int64_t n = u.sizes()[0], m = v.sizes()[0];
    Tensor<T> out = new_tensor<T>({n, m});
    prefill(out, input, beta, op);
    // An outer product is a GEMM with k = 1: u as an n x 1 matrix, v as 1 x m.
    MatRef<T> um{data_at(u, u.storage_offset()), n, 1, u.strides()[0], 1};
    MatRef<T> vm{data_at(v, v.storage_offset()), 1, m, 1, v.strides()[0]};
    gemm<T>(n, m, 1, alpha, um, vm, beta, out.data_ptr(), m);
    return out;
}

template <class T>
void check_batches(const Tensor<T>& a, const Tensor<T>& b, const char* op) {
    if (a.dim() != 3) fail<shape_error>(op, ": batch1 must be a 3D tensor, got shape ", a.sizes());
    if (b.dim() != 3) fail<shape_error>(op, ": batch2 must be a 3D tensor, got shape ", b.sizes());
    if (a.sizes()[0] != b.sizes()[0])
        fail<shape_error>(op, ": batch1 and batch2 must have the same number of batches, got ", a.sizes()[0], " and ",
                          b.sizes()[0], " (shapes ", a.sizes(), " and ", b.sizes(), ")");
    if (a.sizes()[2] != b.sizes()[1])
        fail<shape_error>(op, ": Incompatible matrix sizes for bmm (", a.sizes()[1], "x", a.sizes()[2], " and ",
                          b.sizes()[1], "x", b.sizes()[2], ")");
}

template <class T>
Tensor<T> addbmm_impl(const Tensor<T>& input, const Tensor<T>& a, const Tensor<T>& b, T beta, T alpha,
                      const char* op) {
    check_batches(a, b, op);
    const int64_t batches = a.sizes()[0], n = a.sizes()[1], k = a.sizes()[2], p = b.sizes()[2];
    Tensor<T> out = new_tensor<T>({n, p});
    prefill(out, input, beta, op);
    if (batches == 0) {
        if (beta == T(0)) out.zero_();
        else if (beta != T(1)) out.mul_(beta);
        return out;
    }
    // The sum over the batch accumulates in the output: beta for the first product, 1 after.
    for (int64_t i = 0; i < batches; ++i)
        gemm<T>(n, p, k, alpha, mat_ref(a, a.storage_offset() + i * a.strides()[0], 1, 2),
                mat_ref(b, b.storage_offset() + i * b.strides()[0], 1, 2), i == 0 ? beta : T(1), out.data_ptr(), p);
    return out;
}

template <class T>
Tensor<T> baddbmm_impl(const Tensor<T>& input, const Tensor<T>& a, const Tensor<T>& b, T beta, T alpha,
                       const char* op) {
    check_batches(a, b, op);
    Tensor<T> out = new_tensor<T>({a.sizes()[0], a.sizes()[1], b.sizes()[2]});
    prefill(out, input, beta, op);
    batched_gemm<T>(a, b, out, alpha, beta);
    return out;
}

/// Materialises three same-dtype operands, calls f(input, a, b, beta, alpha) with recording
/// off and records the result as one node named `backward` (PyTorch's grad_fn name).
template <class I, class X, class Y, class F>
auto ternary_product(const I& input, const X& x, const Y& y, double beta, double alpha, const char* op,
                     const char* backward, ProductKind kind, F&& f) {
    using T = operand_value_t<I>;
    check_same_dtype<T, operand_value_t<X>>(op);
    check_same_dtype<T, operand_value_t<Y>>(op);
    check_gemm_dtype<T>(op);
    if constexpr (std::is_same_v<T, operand_value_t<X>> && std::is_same_v<T, operand_value_t<Y>> &&
                  is_gemm_element<T>) {
        const T b = coefficient<T>(beta, op, "beta"), a = coefficient<T>(alpha, op, "alpha");
        const Tensor<T> in = materialize(input, op), u = materialize(x, op), v = materialize(y, op);
        Tensor<T> r = untracked([&] { return f(in, u, v, b, a); });
        record_product(backward, kind, r, u, v, in, beta, alpha);
        return r;
    } else {
        return Tensor<T>();  // unreachable: the checks above threw
    }
}

template <class T>
Tensor<T> cross_impl(const Tensor<T>& a, const Tensor<T>& b, std::optional<int64_t> dim, const char* op) {
    if (a.dim() != b.dim())
        fail<shape_error>(op, ": inputs must have the same number of dimensions, got shapes ", a.sizes(), " and ",
                          b.sizes());
    const IntArray shape = broadcast_shapes(a.sizes(), b.sizes(), op);
    int64_t d;
    if (dim) {
        d = wrap_dim(*dim, static_cast<int64_t>(shape.size()), op);
    } else {  // torch.cross: the first dim of size 3
        d = -1;
        for (size_t i = 0; i < shape.size() && d < 0; ++i)
            if (shape[i] == 3) d = static_cast<int64_t>(i);
        if (d < 0) fail<shape_error>(op, ": no dimension of size 3 in input (shapes ", a.sizes(), " and ", b.sizes(), ")");
    }
    if (a.sizes()[d] != 3 || b.sizes()[d] != 3)
        fail<shape_error>(op, ": inputs dimension ", d, " must have length 3. Got ", a.sizes()[d], " and ",
                          b.sizes()[d]);
    Tensor<T> out = new_tensor<T>(shape);
    for (int64_t i = 0; i < 3; ++i) {
        const int64_t j = (i + 1) % 3, k = (i + 2) % 3;
        out.select(d, i) = a.select(d, j) * b.select(d, k) - a.select(d, k) * b.select(d, j);
    }
    return out;
}

/// The k-th diagonal of the last two dims of t as a view: sizes (..., len), offset moved.
template <class T>
Tensor<T> diagonal_view(const Tensor<T>& t, int64_t k) {
    const int64_t nd = t.dim(), n = t.sizes()[nd - 2], m = t.sizes()[nd - 1];
    const int64_t len = std::max<int64_t>(0, k >= 0 ? std::min(n, m - k) : std::min(n + k, m));
    IntArray sizes(t.sizes().begin(), t.sizes().end() - 2), strides(t.strides().begin(), t.strides().end() - 2);
    sizes.push_back(len);
    strides.push_back(t.strides()[nd - 2] + t.strides()[nd - 1]);
    int64_t offset = t.storage_offset();
    if (len > 0) offset += k >= 0 ? k * t.strides()[nd - 1] : -k * t.strides()[nd - 2];
    return strided_view(t, sizes, strides, offset);
}

/// tril (Lower = true) or triu of the last two dims: a new tensor with the rest zeroed.
template <bool Lower, class T>
Tensor<T> triangle_impl(const Tensor<T>& t, int64_t k, const char* op) {
    if (t.dim() < 2)
        fail<shape_error>(op, ": input tensor must have at least 2 dimensions, got shape ", t.sizes());
    Tensor<T> out = new_tensor<T>(t.sizes());
    out.copy_(t);
    const int64_t nd = t.dim(), n = t.sizes()[nd - 2], m = t.sizes()[nd - 1];
    const int64_t count = n * m == 0 ? 0 : out.numel() / (n * m);
    T* o = out.data_ptr();
    for (int64_t b = 0; b < count; ++b)
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < m; ++j) {
                const bool keep = Lower ? j - i <= k : j - i >= k;
                if (!keep) o[(b * n + i) * m + j] = T(0);
            }
    return out;
}

/// The cheapest order to multiply a chain whose matrix i is dims[i] x dims[i+1] (the
/// textbook dynamic program); split[i][j] is where the product of i..j divides.
inline std::vector<std::vector<size_t>> chain_order(const std::vector<int64_t>& dims) {
    const size_t n = dims.size() - 1;
    std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
    for (size_t len = 1; len < n; ++len)
        for (size_t i = 0; i + len < n; ++i) {
            const size_t j = i + len;
            cost[i][j] = std::numeric_limits<double>::infinity();
            for (size_t s = i; s < j; ++s) {
                const double c = cost[i][s] + cost[s + 1][j] +
                                 static_cast<double>(dims[i]) * static_cast<double>(dims[s + 1]) *
                                     static_cast<double>(dims[j + 1]);
                if (c < cost[i][j]) {
                    cost[i][j] = c;
                    split[i][j] = s;
                }
            }
        }
    return split;
}

template <class T>
Tensor<T> chain_product(const std::vector<Tensor<T>>& m, const std::vector<std::vector<size_t>>& split, size_t i,
                        size_t j) {
    if (i == j) return m[i];
    const size_t s = split[i][j];
    const Tensor<T> a = chain_product(m, split, i, s), b = chain_product(m, split, s + 1, j);
    return recorded_product("MmBackward0", a, b, [&] { return mm_impl(a, b, "linalg.multi_dot"); });
}

template <class T>
Tensor<T> multi_dot_impl(const std::vector<Tensor<T>>& tensors) {
    const char* op = "linalg.multi_dot";
    check_gemm_dtype<T>(op);
    const size_t n = tensors.size();
    if (n < 2) fail<value_error>(op, ": expected at least 2 tensors but got ", n);
    std::vector<Tensor<T>> m;
    for (size_t i = 0; i < n; ++i) {
        const Tensor<T>& t = tensors[i];
        if (!t.defined()) fail<value_error>(op, ": tensor ", i, " is undefined");
        check_host_access(t, op);
        const bool end = i == 0 || i + 1 == n;
        if (t.dim() != 2 && !(end && t.dim() == 1))
            fail<shape_error>(op, ": ", i == 0 ? "the first tensor" : (i + 1 == n ? "the last tensor" : "tensor"),
                              i == 0 || i + 1 == n ? "" : (" " + std::to_string(i)).c_str(), " must be ",
                              end ? "1D or 2D" : "2D", " but got ", t.dim(), "D (shape ", t.sizes(), ")");
        m.push_back(t.dim() == 1 ? (i == 0 ? t.unsqueeze(0) : t.unsqueeze(1)) : t);
    }
    std::vector<int64_t> dims{m[0].sizes()[0]};
    for (size_t i = 0; i < n; ++i) {
        if (i + 1 < n && m[i].sizes()[1] != m[i + 1].sizes()[0])
            fail<shape_error>(op, ": tensors ", i, " and ", i + 1, " with shapes ", tensors[i].sizes(), " and ",
                              tensors[i + 1].sizes(), " cannot be multiplied");
        dims.push_back(m[i].sizes()[1]);
    }
    Tensor<T> r = chain_product(m, chain_order(dims), 0, n - 1);
    if (tensors[n - 1].dim() == 1) r = r.squeeze(1);
    if (tensors[0].dim() == 1) r = r.squeeze(0);
    return r.contiguous();
}

}  // namespace detail

/// torch.outer (ger): the outer product of two 1-D tensors, u[i] * v[j] (dtypes promote).
template <expr::TensorOperand X, expr::TensorOperand Y>
auto outer(const X& u, const Y& v) {
    const auto a = detail::materialize(u, "outer");
    const auto b = detail::materialize(v, "outer");
    detail::check_vector(a, "outer", "self");
    detail::check_vector(b, "outer", "vec2");
    auto e = a.unsqueeze(1) * b.unsqueeze(0);
    return Tensor<typename decltype(e)::value_type>(e);
}
/// torch.ger: an old name of outer.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto ger(const X& u, const Y& v) {
    return outer(u, v);
}

/// torch.addmm: beta * input + alpha * (mat1 @ mat2); input broadcasts to (n, p).
template <expr::TensorOperand I, expr::TensorOperand X, expr::TensorOperand Y>
auto addmm(const I& input, const X& mat1, const Y& mat2, double beta = 1, double alpha = 1) {
    return detail::ternary_product(input, mat1, mat2, beta, alpha, "addmm", "AddmmBackward0",
                                   detail::ProductKind::Matmul, [](const auto&... args) {
        return detail::addmm_impl(args..., "addmm");
    });
}

/// torch.addmv: beta * input + alpha * (mat @ vec); input broadcasts to (n).
template <expr::TensorOperand I, expr::TensorOperand X, expr::TensorOperand Y>
auto addmv(const I& input, const X& mat, const Y& vec, double beta = 1, double alpha = 1) {
    return detail::ternary_product(input, mat, vec, beta, alpha, "addmv", "AddmvBackward0",
                                   detail::ProductKind::Matmul, [](const auto&... args) {
        return detail::addmv_impl(args..., "addmv");
    });
}

/// torch.addr: beta * input + alpha * outer(vec1, vec2); input broadcasts to (n, m).
template <expr::TensorOperand I, expr::TensorOperand X, expr::TensorOperand Y>
auto addr(const I& input, const X& vec1, const Y& vec2, double beta = 1, double alpha = 1) {
    return detail::ternary_product(input, vec1, vec2, beta, alpha, "addr", "AddrBackward0",
                                   detail::ProductKind::Outer, [](const auto&... args) {
        return detail::addr_impl(args..., "addr");
    });
}

/// torch.addbmm: beta * input + alpha * sum_i batch1[i] @ batch2[i]; input broadcasts to (n, p).
template <expr::TensorOperand I, expr::TensorOperand X, expr::TensorOperand Y>
auto addbmm(const I& input, const X& batch1, const Y& batch2, double beta = 1, double alpha = 1) {
    return detail::ternary_product(input, batch1, batch2, beta, alpha, "addbmm", "AddbmmBackward0",
                                   detail::ProductKind::BatchSum, [](const auto&... args) {
        return detail::addbmm_impl(args..., "addbmm");
    });
}

/// torch.baddbmm: beta * input[i] + alpha * batch1[i] @ batch2[i]; input broadcasts to (b, n, p).
template <expr::TensorOperand I, expr::TensorOperand X, expr::TensorOperand Y>
auto baddbmm(const I& input, const X& batch1, const Y& batch2, double beta = 1, double alpha = 1) {
    return detail::ternary_product(input, batch1, batch2, beta, alpha, "baddbmm", "BaddbmmBackward0",
                                   detail::ProductKind::Matmul, [](const auto&... args) {
        return detail::baddbmm_impl(args..., "baddbmm");
    });
}

/// torch.cross: the cross product along `dim` (size 3), the first dim of size 3 when none is
/// given; the other dims broadcast.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto cross(const X& a, const Y& b, std::optional<int64_t> dim = std::nullopt) {
    return detail::binary_product(a, b, "cross", [&](const auto& x, const auto& y) {
        return detail::cross_impl(x, y, dim, "cross");
    });
}

/// torch.trace: the sum of the main diagonal of a matrix (integers sum to int64).
template <expr::TensorOperand X>
auto trace(const X& x) {
    const auto t = detail::materialize(x, "trace");
    if (t.dim() != 2) detail::fail<shape_error>("trace: expected a matrix, but got tensor with dim ", t.dim());
    const auto d = detail::diagonal_view(t, 0);
    detail::record_view(t, d, "DiagonalBackward0");  // the gradient reaches t's diagonal
    return tenet::sum(d);
}

/// torch.diag: a 1-D input becomes a square matrix with it on the `diagonal`-th diagonal; a
/// 2-D input gives a copy of that diagonal.
template <expr::TensorOperand X>
auto diag(const X& x, int64_t diagonal = 0) {
    using T = detail::operand_value_t<X>;
    const auto t = detail::materialize(x, "diag");
    if (t.dim() == 1) {
        const int64_t n = t.sizes()[0] + (diagonal >= 0 ? diagonal : -diagonal);
        Tensor<T> out = detail::new_tensor<T>({n, n});
        out.zero_();
        detail::diagonal_view(out, diagonal).copy_(t);
        return out;
    }
    if (t.dim() != 2) detail::fail<shape_error>("diag(): Supports 1D or 2D tensors. Got ", t.dim(), "D");
    const Tensor<T> d = detail::diagonal_view(t, diagonal);
    detail::record_view(t, d, "DiagonalBackward0");
    Tensor<T> out = detail::new_tensor<T>(d.sizes());
    out.copy_(d);
    return out;
}

/// torch.tril: the lower triangle (j - i <= diagonal) of the last two dims; the rest zero.
template <expr::TensorOperand X>
auto tril(const X& x, int64_t diagonal = 0) {
    const auto t = detail::materialize(x, "tril");
    detail::refuse_named(t, "aten::tril");
    auto r = detail::untracked([&] { return detail::triangle_impl<true>(t, diagonal, "tril"); });
    detail::record_triangle<true>(t, r, diagonal);
    return r;
}
/// torch.triu: the upper triangle (j - i >= diagonal) of the last two dims; the rest zero.
template <expr::TensorOperand X>
auto triu(const X& x, int64_t diagonal = 0) {
    const auto t = detail::materialize(x, "triu");
    detail::refuse_named(t, "aten::triu");
    auto r = detail::untracked([&] { return detail::triangle_impl<false>(t, diagonal, "triu"); });
    detail::record_triangle<false>(t, r, diagonal);
    return r;
}

namespace linalg {

/// torch.linalg.cross: the cross product along `dim` (default -1, size 3); other dims broadcast.
template <expr::TensorOperand X, expr::TensorOperand Y>
auto cross(const X& a, const Y& b, int64_t dim = -1) {
    return detail::binary_product(a, b, "linalg.cross", [&](const auto& x, const auto& y) {
        return detail::cross_impl(x, y, dim, "linalg.cross");
    });
}

/// torch.linalg.multi_dot: the product of a chain of matrices in the cheapest order. The first
/// may be 1-D (a row vector) and the last 1-D (a column vector); their dims are dropped.
template <class T>
Tensor<T> multi_dot(const std::vector<Tensor<T>>& tensors) {
    return detail::multi_dot_impl(tensors);
}
template <class T>
Tensor<T> multi_dot(std::initializer_list<Tensor<T>> tensors) {
    return detail::multi_dot_impl(std::vector<Tensor<T>>(tensors));
}

}  // namespace linalg

// ---- Methods on Tensor<T> (declared in core/tensor.hpp) ---------------------------------

template <class T>
template <class X>
auto Tensor<T>::outer(const X& other) const {
    return tenet::outer(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::ger(const X& other) const {
    return tenet::outer(*this, other);
}
template <class T>
template <class X>
auto Tensor<T>::cross(const X& other, std::optional<int64_t> dim) const {
    return tenet::cross(*this, other, dim);
}
template <class T>
auto Tensor<T>::trace() const {
    return tenet::trace(*this);
}
template <class T>
auto Tensor<T>::diag(int64_t diagonal) const {
    return tenet::diag(*this, diagonal);
}
template <class T>
auto Tensor<T>::tril(int64_t diagonal) const {
    return tenet::tril(*this, diagonal);
}
template <class T>
auto Tensor<T>::triu(int64_t diagonal) const {
    return tenet::triu(*this, diagonal);
}

}  // namespace tenet
