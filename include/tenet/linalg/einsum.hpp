#pragma once
// tenet::einsum(equation, {operands...}): Einstein summation with PyTorch's grammar —
// subscripts [a-zA-Z], "..." for broadcast dims, an explicit output after "->" or the
// implicit one (the ellipsis dims, then the subscripts seen exactly once, in ASCII order),
// and repeated subscripts within an operand taking a diagonal. Sizes of one subscript must
// be equal or 1 (broadcast).
//
// Evaluation, left to right as PyTorch: each operand first sums out the subscripts nobody
// else needs; then each pair contracts with one batched GEMM (shared subscripts still needed
// later are the batch, the others the contracted dim), or with a broadcast multiply when
// nothing is contracted. Diagonals and permutations are views; only what the GEMM cannot
// read in place is copied.
//
// The parser is constexpr: the compile-time form (linalg/static_einsum.hpp) reuses it.
//
// Gradients: einsum is composed of recorded steps (diagonal and permute views, sums, bmm,
// broadcast multiplies, a copy), so its backward is theirs; the result's grad_fn is the last
// step's (CopyBackwards), not PyTorch's.

#include "tenet/config.hpp"
#include <array>
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "tenet/expr/binary_ops.hpp"
#include "tenet/backend/host/evaluate.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/linalg/matmul.hpp"
#include "tenet/ops/reduce.hpp"

namespace tenet::inline TENET_ABI {
namespace detail {

/// Subscript ids: 'A'-'Z' are 0-25 and 'a'-'z' 26-51 (ASCII order); kEllipsis marks "...".
inline constexpr int kEinsumLetters = 52;
inline constexpr int kEllipsis = -1;
inline constexpr size_t kEinsumMaxOperands = 16;
inline constexpr size_t kEinsumMaxTerm = 64;

enum class EinsumError {
    None,
    BadCharacter,       // not a letter, '.', ',', '-', '>' or space
    LoneDot,            // '.' not part of "..."
    TwoEllipses,        // more than one "..." in one term
    BadArrow,           // '-' without '>' or a second "->"
    TooManyOperands,    // more terms than operands
    TooFewOperands,     // fewer terms than operands
    OutputRepeated,     // a subscript twice in the output
    OutputUnknown,      // an output subscript no input has
    TermTooLong,        // more than kEinsumMaxTerm subscripts
    TooManyTerms,       // more than kEinsumMaxOperands operands
    NoOperands,
};

/// A parsed equation: terms[0..num_inputs) are the inputs, terms[num_inputs] the output.
struct EinsumEquation {
    std::array<std::array<int, kEinsumMaxTerm>, kEinsumMaxOperands + 1> terms{};
    std::array<size_t, kEinsumMaxOperands + 1> lengths{};
    size_t num_inputs = 0;
    bool explicit_output = false;
    EinsumError error = EinsumError::None;
    size_t error_pos = 0;  // index in the equation, or the operand

    constexpr bool has_ellipsis(size_t t) const {
        for (size_t i = 0; i < lengths[t]; ++i)
            if (terms[t][i] == kEllipsis) return true;
        return false;
    }
};

constexpr int einsum_label(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
    return -2;
}
constexpr char einsum_char(int label) {
    return static_cast<char>(label < 26 ? 'A' + label : 'a' + (label - 26));
}

/// Parses `eq` for `num_operands` operands; on failure `error` says why (nothing throws, so
/// this also runs at compile time).
constexpr EinsumEquation parse_einsum(std::string_view eq, size_t num_operands) {
    EinsumEquation r;
    size_t term = 0, dots = 0;
    bool seen_arrow = false;
    auto fail_at = [&](EinsumError e, size_t pos) {
        r.error = e;
        r.error_pos = pos;
        return r;
    };
    auto push = [&](int label) {
        if (r.lengths[term] >= kEinsumMaxTerm) return false;
        r.terms[term][r.lengths[term]++] = label;
        return true;
    };
    for (size_t i = 0; i < eq.size(); ++i) {
        const char c = eq[i];
        if (c == ' ') continue;
        if (dots > 0 && c != '.') return fail_at(EinsumError::LoneDot, i);
        if (c == '.') {
            if (++dots == 3) {
                dots = 0;
                if (r.has_ellipsis(term)) return fail_at(EinsumError::TwoEllipses, term);
                if (!push(kEllipsis)) return fail_at(EinsumError::TermTooLong, term);
            }
        } else if (c == ',') {
            if (seen_arrow) return fail_at(EinsumError::BadCharacter, i);
            if (++term >= kEinsumMaxOperands) return fail_at(EinsumError::TooManyTerms, i);
        } else if (c == '-') {
            if (seen_arrow || i + 1 >= eq.size() || eq[i + 1] != '>') return fail_at(EinsumError::BadArrow, i);
            seen_arrow = true;
            r.num_inputs = term + 1;
            term = kEinsumMaxOperands;  // the output slot
            ++i;
        } else if (einsum_label(c) >= 0) {
            if (!push(einsum_label(c))) return fail_at(EinsumError::TermTooLong, term);
        } else {
            return fail_at(EinsumError::BadCharacter, i);
        }
    }
    if (dots > 0) return fail_at(EinsumError::LoneDot, eq.size());
    if (!seen_arrow) r.num_inputs = term + 1;
    r.explicit_output = seen_arrow;
    if (num_operands == 0) return fail_at(EinsumError::NoOperands, 0);
    if (r.num_inputs > num_operands) return fail_at(EinsumError::TooManyOperands, r.num_inputs);
    if (r.num_inputs < num_operands) return fail_at(EinsumError::TooFewOperands, r.num_inputs);
    // The output term lives at index num_inputs from here on.
    const size_t out = r.num_inputs;
    if (seen_arrow) {
        r.terms[out] = r.terms[kEinsumMaxOperands];
        r.lengths[out] = r.lengths[kEinsumMaxOperands];
        for (size_t i = 0; i < r.lengths[out]; ++i) {
            const int l = r.terms[out][i];
            for (size_t j = 0; j < i; ++j)
                if (r.terms[out][j] == l && l != kEllipsis) return fail_at(EinsumError::OutputRepeated, i);
            if (l == kEllipsis) continue;
            bool found = false;
            for (size_t t = 0; t < out && !found; ++t)
                for (size_t j = 0; j < r.lengths[t]; ++j) found = found || r.terms[t][j] == l;
            if (!found) return fail_at(EinsumError::OutputUnknown, i);
        }
    } else {
        // Implicit output: "..." if any input has it, then the labels seen exactly once.
        std::array<int, kEinsumLetters> count{};
        bool any_ellipsis = false;
        for (size_t t = 0; t < out; ++t)
            for (size_t j = 0; j < r.lengths[t]; ++j) {
                if (r.terms[t][j] == kEllipsis) any_ellipsis = true;
                else ++count[static_cast<size_t>(r.terms[t][j])];
            }
        r.lengths[out] = 0;
        if (any_ellipsis) r.terms[out][r.lengths[out]++] = kEllipsis;
        for (int l = 0; l < kEinsumLetters; ++l)
            if (count[static_cast<size_t>(l)] == 1) r.terms[out][r.lengths[out]++] = l;
    }
    return r;
}

inline void throw_einsum_error(const EinsumEquation& e, std::string_view eq) {
    const char* op = "einsum(): ";
    switch (e.error) {
        case EinsumError::None: return;
        case EinsumError::BadCharacter:
            fail<value_error>(op, "invalid subscript given at index ", e.error_pos, " in the equation string '", eq,
                              "', subscripts must be in [a-zA-Z]");
        case EinsumError::LoneDot:
            fail<value_error>(op, "found '.' at index ", e.error_pos, " of '", eq, "' that is not part of any ellipsis");
        case EinsumError::TwoEllipses:
            fail<value_error>(op, "found more than one ellipsis for operand ", e.error_pos, " in '", eq, "'");
        case EinsumError::BadArrow:
            fail<value_error>(op, "invalid '->' at index ", e.error_pos, " in '", eq, "'");
        case EinsumError::TooManyOperands:
            fail<value_error>(op, "fewer operands were provided than specified in the equation '", eq, "'");
        case EinsumError::TooFewOperands:
            fail<value_error>(op, "more operands were provided than specified in the equation '", eq, "'");
        case EinsumError::OutputRepeated:
            fail<value_error>(op, "output subscript ", einsum_char(e.terms[e.num_inputs][e.error_pos]),
                              " appears more than once in the output of '", eq, "'");
        case EinsumError::OutputUnknown:
            fail<value_error>(op, "output subscript ", einsum_char(e.terms[e.num_inputs][e.error_pos]),
                              " does not appear in the equation for any input operand ('", eq, "')");
        case EinsumError::TermTooLong:
            fail<value_error>(op, "operand ", e.error_pos, " of '", eq, "' has more than ", kEinsumMaxTerm,
                              " subscripts");
        case EinsumError::TooManyTerms:
            fail<value_error>(op, "at most ", kEinsumMaxOperands, " operands are supported ('", eq, "')");
        case EinsumError::NoOperands: fail<value_error>(op, "must provide at least one operand");
    }
}

/// An operand during evaluation: a view and the global label of each of its dims.
template <class T>
struct Labeled {
    Tensor<T> t;
    std::vector<int> labels;
};

inline bool has_label(const std::vector<int>& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); }

/// Sums out the dims whose labels are not in `keep`.
template <class T>
Labeled<T> sum_out(Labeled<T> x, const std::vector<int>& keep) {
    IntArray dims;
    std::vector<int> left;
    for (size_t d = 0; d < x.labels.size(); ++d) {
        if (has_label(keep, x.labels[d])) left.push_back(x.labels[d]);
        else dims.push_back(static_cast<int64_t>(d));
    }
    if (dims.empty()) return x;
    Tensor<T> s = tenet::sum(x.t, dims).template to<T>();
    return {std::move(s), std::move(left)};
}

/// x permuted to the label order `order` (every label of x appears in it), then reshaped to
/// the given group sizes.
template <class T>
Tensor<T> arrange(const Labeled<T>& x, const std::vector<int>& order, const IntArray& shape) {
    IntArray perm;
    for (int l : order) perm.push_back(std::find(x.labels.begin(), x.labels.end(), l) - x.labels.begin());
    return x.t.permute(perm).reshape(shape);
}

/// Contracts two labeled operands; labels in `later` (the output and the operands still to
/// come) survive, the other shared ones are summed over.
template <class T>
Labeled<T> contract_pair(Labeled<T> a, Labeled<T> b, const std::vector<int>& later, const std::vector<int64_t>& size) {
    std::vector<int> batch, left, right, inner;
    for (int l : a.labels) {
        if (has_label(b.labels, l)) (has_label(later, l) ? batch : inner).push_back(l);
        else left.push_back(l);
    }
    for (int l : b.labels)
        if (!has_label(a.labels, l)) right.push_back(l);
    // Broadcast size-1 dims of shared labels to the common size (stride-0 views).
    auto expand_shared = [&](Labeled<T>& x) {
        IntArray want;
        bool grows = false;
        for (int l : x.labels) {
            want.push_back(has_label(batch, l) || has_label(inner, l) ? size[l] : -1);
            grows = grows || (want.back() != -1 && want.back() != x.t.sizes()[want.size() - 1]);
        }
        x.t = x.t.expand(want);
        // A recorded view of an expanded tensor cannot route its gradient back (its elements
        // alias), so a broadcast operand is copied before arrange permutes it.
        if (grows && linalg_records(x.t)) x.t = x.t.contiguous();
    };
    expand_shared(a);
    expand_shared(b);
    auto prod = [&](const std::vector<int>& ls) {
        int64_t p = 1;
        for (int l : ls) p *= size[l];
        return p;
    };
    std::vector<int> out_labels = batch;
    out_labels.insert(out_labels.end(), left.begin(), left.end());
    out_labels.insert(out_labels.end(), right.begin(), right.end());
    IntArray out_shape;
    for (int l : out_labels) out_shape.push_back(size[l]);
    const int64_t B = prod(batch), M = prod(left), N = prod(right), K = prod(inner);
    if (inner.empty()) {
        // Nothing to sum: a broadcast multiply, A as (B, M, 1) and B as (B, 1, N).
        std::vector<int> ao = batch, bo = batch;
        ao.insert(ao.end(), left.begin(), left.end());
        bo.insert(bo.end(), right.begin(), right.end());
        const Tensor<T> x = arrange(a, ao, {B, M, 1}), y = arrange(b, bo, {B, 1, N});
        Tensor<T> r = x * y;
        return {r.view(out_shape), out_labels};
    }
    std::vector<int> ao = batch, bo = batch;
    ao.insert(ao.end(), left.begin(), left.end());
    ao.insert(ao.end(), inner.begin(), inner.end());
    bo.insert(bo.end(), inner.begin(), inner.end());
    bo.insert(bo.end(), right.begin(), right.end());
    const Tensor<T> x = arrange(a, ao, {B, M, K}), y = arrange(b, bo, {B, K, N});
    const Tensor<T> r = tenet::bmm(x, y);  // recorded when an operand requires grad
    return {r.view(out_shape), out_labels};
}

template <class T>
Tensor<T> einsum_impl(std::string_view equation, const std::vector<Tensor<T>>& operands) {
    const char* op = "einsum()";
    const EinsumEquation eq = parse_einsum(equation, operands.size());
    throw_einsum_error(eq, equation);
    const size_t n = eq.num_inputs;
    // Ellipsis dims get labels kEinsumLetters.. (right-aligned across operands).
    int64_t ell = 0;
    for (size_t i = 0; i < n; ++i) {
        const Tensor<T>& t = operands[i];
        if (!t.defined()) fail<value_error>(op, ": operand ", i, " is undefined");
        check_host_access(t, op);
        const int64_t named = static_cast<int64_t>(eq.lengths[i]) - (eq.has_ellipsis(i) ? 1 : 0);
        if (eq.has_ellipsis(i) ? t.dim() < named : t.dim() != named)
            fail<shape_error>(op, ": the number of subscripts in the equation (", named,
                              ") does not match the number of dimensions (", t.dim(), ") for operand ", i,
                              eq.has_ellipsis(i) ? "" : " and no ellipsis was given", " (shape ", t.sizes(), ")");
        if (eq.has_ellipsis(i)) ell = std::max(ell, t.dim() - named);
    }
    std::vector<int64_t> size(static_cast<size_t>(kEinsumLetters + ell), -1);
    auto meet = [&](int label, int64_t s, size_t i) {
        int64_t& cur = size[static_cast<size_t>(label)];
        if (cur == -1 || cur == 1) cur = s;
        else if (s != 1 && s != cur) {
            if (label < kEinsumLetters)
                fail<shape_error>(op, ": subscript ", einsum_char(label), " has size ", s, " for operand ", i,
                                  " (shape ", operands[i].sizes(), ") which does not broadcast with previously seen size ",
                                  cur);
            fail<shape_error>(op, ": the ellipsis dims of operand ", i, " (shape ", operands[i].sizes(),
                              ") do not broadcast with the other operands' (size ", s, " against ", cur, ")");
        }
    };
    std::vector<Labeled<T>> ops;
    for (size_t i = 0; i < n; ++i) {
        const Tensor<T>& t = operands[i];
        std::vector<int> labels;
        for (size_t j = 0; j < eq.lengths[i]; ++j) {
            if (eq.terms[i][j] != kEllipsis) {
                labels.push_back(eq.terms[i][j]);
                continue;
            }
            const int64_t e = t.dim() - (static_cast<int64_t>(eq.lengths[i]) - 1);
            for (int64_t k = 0; k < e; ++k) labels.push_back(static_cast<int>(kEinsumLetters + ell - e + k));
        }
        // Repeated labels: take the diagonal (one dim whose stride is the sum of theirs).
        IntArray sizes, strides;
        std::vector<int> unique;
        for (size_t d = 0; d < labels.size(); ++d) {
            const auto it = std::find(unique.begin(), unique.end(), labels[d]);
            if (it == unique.end()) {
                unique.push_back(labels[d]);
                sizes.push_back(t.sizes()[d]);
                strides.push_back(t.strides()[d]);
                continue;
            }
            const size_t u = static_cast<size_t>(it - unique.begin());
            if (sizes[u] != t.sizes()[d])
                fail<shape_error>(op, ": subscript ", einsum_char(labels[d]), " is repeated for operand ", i,
                                  " but the sizes don't match, ", sizes[u], " != ", t.sizes()[d]);
            strides[u] += t.strides()[d];
        }
        for (size_t d = 0; d < unique.size(); ++d) meet(unique[d], sizes[d], i);
        if (unique.size() == labels.size()) {
            ops.push_back({t, unique});
            continue;
        }
        Tensor<T> diagonal = strided_view(t, sizes, strides, t.storage_offset());
        record_view(t, diagonal, "DiagonalBackward0");
        ops.push_back({diagonal, unique});
    }
    std::vector<int> output;
    for (size_t j = 0; j < eq.lengths[n]; ++j) {
        if (eq.terms[n][j] != kEllipsis) output.push_back(eq.terms[n][j]);
        else
            for (int64_t k = 0; k < ell; ++k) output.push_back(static_cast<int>(kEinsumLetters + k));
    }
    // Ellipsis dims that the output drops (explicit output without "...") are summed over.
    auto later_than = [&](size_t i) {
        std::vector<int> v = output;
        for (size_t j = i + 1; j < n; ++j) v.insert(v.end(), ops[j].labels.begin(), ops[j].labels.end());
        return v;
    };
    Labeled<T> cur = sum_out(ops[0], later_than(0));
    for (size_t i = 1; i < n; ++i) {
        const std::vector<int> later = later_than(i);
        std::vector<int> keep_b = later, keep_a = later;
        keep_b.insert(keep_b.end(), cur.labels.begin(), cur.labels.end());
        keep_a.insert(keep_a.end(), ops[i].labels.begin(), ops[i].labels.end());
        Labeled<T> next = sum_out(ops[i], keep_b);
        cur = sum_out(cur, keep_a);
        cur = contract_pair(std::move(cur), std::move(next), later, size);
    }
    cur = sum_out(cur, output);
    // Output labels of size-1 broadcast dims that only one operand had keep their size there.
    IntArray shape;
    for (int l : output) shape.push_back(size[static_cast<size_t>(l)]);
    Tensor<T> r = new_tensor<T>(shape);
    IntArray perm;
    for (int l : output) perm.push_back(std::find(cur.labels.begin(), cur.labels.end(), l) - cur.labels.begin());
    r.copy_(cur.t.permute(perm));
    return r;
}

}  // namespace detail

/// torch.einsum(equation, {operands...}): see the file comment for the grammar. All operands
/// share one element type (float, double or an integer type); the result is a new tensor.
template <class T>
Tensor<T> einsum(std::string_view equation, const std::vector<Tensor<T>>& operands) {
    detail::check_gemm_dtype<T>("einsum()");
    if constexpr (detail::is_gemm_element<T>) return detail::einsum_impl(equation, operands);
    else return Tensor<T>();  // unreachable: the check threw
}
template <class T>
Tensor<T> einsum(std::string_view equation, std::initializer_list<Tensor<T>> operands) {
    return einsum(equation, std::vector<Tensor<T>>(operands));
}

}  // namespace tenet
