#pragma once
// tenet::nn::functional: the losses of torch.nn.functional, with PyTorch's arguments in Python's
// order and its reduction modes ("mean", "sum", "none").
//
// The pointwise losses are tenet expressions: with reduction "mean" or "sum" the loss and the
// inputs' gradients come from ONE fused pass (sum and mean over an expression, autograd/record.hpp).
// nll_loss is its own kernel with NllLossBackward0; cross_entropy of [N, C] logits and class
// indices is one kernel forward and one backward (cross_entropy_rows); otherwise it is
// log_softmax then nll_loss (and, with label smoothing, PyTorch's smoothing term), as PyTorch
// composes it.

#include "tenet/config.hpp"
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>
#include <type_traits>

#include "tenet/core/hooks.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/expr/math.hpp"
#include "tenet/expr/operators.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/reduce.hpp"
#include "tenet/backend/host/simd_dispatch.hpp"
#include "tenet/backend/host/strided_loop.hpp"
#include "tenet/ops/softmax.hpp"

namespace tenet::inline TENET_ABI::nn::functional {

namespace detail {
using namespace tenet::detail;

/// Tensor<T>, in a parameter that does not take part in deducing T: an expression converts.
template <class T>
using Same = std::type_identity_t<Tensor<T>>;

enum class Reduction { Mean, Sum, None };

inline Reduction parse_reduction(std::string_view r, const char* op) {
    if (r == "mean") return Reduction::Mean;
    if (r == "sum") return Reduction::Sum;
    if (r == "none") return Reduction::None;
    fail<value_error>(op, ": ", r, " is not a valid value for reduction (\"mean\", \"sum\" or \"none\")");
}

/// The elementwise loss `e` reduced as asked: one fused pass (with gradients) for mean and sum.
template <class T, class E>
Tensor<T> reduce_loss(const E& e, Reduction r) {
    if (r == Reduction::Mean) return mean(e);
    if (r == Reduction::Sum) return sum(e);
    return Tensor<T>(e);
}

template <class T, class U>
void check_same_shape(const Tensor<T>& input, const Tensor<U>& target, const char* op) {
    if (input.sizes() != target.sizes())
        fail<value_error>(op, ": the target's size (", target.sizes(), ") must be the same as the input's size (",
                          input.sizes(), ")");
}

/// Each target's class weight (`weight[c]`, or 1 without weights; 0 where the target is
/// ignore_index) and their total, the divisor of the mean reduction. Raises value_error for a
/// weight that is not one per class, index_error for a class index outside [0, C).
struct TargetWeights {
    std::vector<double> of_target;
    double total = 0;
};
template <class T>
TargetWeights target_weights(const Tensor<int64_t>& target, const Tensor<T>& weight, int64_t C, int64_t ignore_index,
                             const char* op) {
    if (weight.defined() && (weight.dim() != 1 || weight.size(0) != C))
        fail<value_error>(op, ": weight tensor should be defined either for all ", C,
                          " classes or no classes but got weight tensor of shape: ", weight.sizes());
    const Tensor<int64_t> t = target.contiguous();
    const Tensor<T> w = weight.defined() ? weight.contiguous() : Tensor<T>();
    TargetWeights r;
    r.of_target.resize(static_cast<size_t>(t.numel()));
    for (int64_t j = 0; j < t.numel(); ++j) {
        const int64_t c = t.data_ptr()[j];
        if (c == ignore_index) continue;
        if (c < 0 || c >= C) fail<index_error>(op, ": Target ", c, " is out of bounds (", C, " classes)");
        const double wc = w.defined() ? convert<double>(w.data_ptr()[c]) : 1.0;
        r.of_target[static_cast<size_t>(j)] = wc;
        r.total += wc;
    }
    return r;
}

/// nll_loss on input [N, C, S...] seen as [N, C, S] and target [N, S] (or input [C], target []).
template <class T>
Tensor<T> nll_loss_impl(const Tensor<T>& input, const Tensor<int64_t>& target, const Tensor<T>& weight,
                        int64_t ignore_index, Reduction reduction) {
    const char* op = "nll_loss";
    check_host_access(input, op);
    check_host_access(target, op);
    const int64_t nd = input.dim();
    if (nd < 1) fail<value_error>(op, ": input must have at least 1 dim (got a 0-d tensor)");
    const bool batched = nd >= 2;
    const int64_t N = batched ? input.size(0) : 1, C = input.size(batched ? 1 : 0);
    IntArray want;  // the target's expected shape: the input's without the class dim
    for (int64_t d = 0; d < nd; ++d)
        if (d != (batched ? 1 : 0)) want.push_back(input.size(d));
    if (target.sizes() != want)
        fail<value_error>(op, ": expected target of size ", want, " for input of size ", input.sizes(), ", got ",
                          target.sizes());
    TargetWeights tw = target_weights(target, weight, C, ignore_index, op);
    std::vector<double> weights = std::move(tw.of_target);
    const double total_weight = tw.total;
    const int64_t S = N == 0 || C == 0 ? 0 : input.numel() / (N * C);
    const Tensor<T> x = input.contiguous();
    const Tensor<int64_t> t = target.contiguous();
    const T* xp = x.data_ptr();
    const int64_t* tp = t.data_ptr();
    // Per target element its loss, -w[c] * x[n, c, s] (0 where ignored).
    Tensor<T> losses(make_contiguous_impl(target.sizes(), dtype_of<T>, input.device()));
    for (int64_t n = 0; n < N; ++n)
        for (int64_t s = 0; s < S; ++s) {
            const int64_t j = n * S + s;
            losses.data_ptr()[j] = tp[j] == ignore_index
                                       ? T(0)
                                       : convert<T>(-weights[static_cast<size_t>(j)] * convert<double>(xp[(n * C + tp[j]) * S + s]));
        }
    Tensor<T> result;
    if (reduction == Reduction::None) {
        result = losses;
    } else {
        double total = 0;
        for (int64_t j = 0; j < N * S; ++j) total += convert<double>(losses.data_ptr()[j]);
        if (reduction == Reduction::Mean) total /= total_weight;  // 0 / 0: NaN, as PyTorch
        result = full<T>({}, total, TensorOptions().device(input.device()));
    }
    const double scale = reduction == Reduction::Mean ? 1.0 / total_weight : 1.0;
    record_function(
        nd >= 3 ? "NllLoss2DBackward0" : "NllLossBackward0", result, {},
        [t, weights = std::move(weights), sizes = input.sizes(), N, C, S, scale, reduction](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx = zeros<T>(sizes);
            T* d = dx.data_ptr();
            const int64_t* tp = t.data_ptr();
            for (int64_t j = 0; j < N * S; ++j) {
                const double wj = weights[static_cast<size_t>(j)];
                if (wj == 0) continue;
                const double gj = convert<double>(g.data_ptr()[reduction == Reduction::None ? j : 0]);
                const int64_t n = j / S, s = j % S;
                d[(n * C + tp[j]) * S + s] = convert<T>(-wj * gj * scale);
            }
            return std::array<TensorBase, 1>{dx};
        },
        input);
    return result;
}

/// cross_entropy of logits [N, C] (host) and class indices [N], without label smoothing: one pass
/// per row forward (its logsumexp and loss) and one backward, (softmax - one_hot) * w * g, as a
/// hand-written loop would; the node is nll_loss's, as PyTorch's result ends in it.
template <class T>
Tensor<T> cross_entropy_rows(const Tensor<T>& input, const Tensor<int64_t>& target, const Tensor<T>& weight,
                             int64_t ignore_index, Reduction reduction) {
    const char* op = "cross_entropy";
    check_host_access(target, op);
    const int64_t N = input.size(0), C = input.size(1);
    if (target.sizes() != IntArray{N})
        fail<value_error>(op, ": expected target of size ", IntArray{N}, " for input of size ", input.sizes(), ", got ",
                          target.sizes());
    TargetWeights tw = target_weights(target, weight, C, ignore_index, op);
    std::vector<double> row_weight = std::move(tw.of_target);
    const double total_weight = tw.total;
    using Cmp = softmax_compute_t<T>;
    const Tensor<T> x = input.contiguous().detach();
    const Tensor<int64_t> t = target.contiguous();
    std::vector<Cmp> lse(static_cast<size_t>(N));
    Tensor<T> losses(make_contiguous_impl({N}, dtype_of<T>, input.device()));
    double total = 0;
    const T* xp = x.data_ptr();
    run_vectorised([&] {
        for (int64_t r = 0; r < N; ++r) {
            const int64_t c = t.data_ptr()[r];
            if (c == ignore_index) {
                losses.data_ptr()[r] = T(0);
                continue;
            }
            const double wr = row_weight[static_cast<size_t>(r)];
            const Cmp l = row_logsumexp<Cmp>(xp + r * C, C, Cmp(1));
            lse[static_cast<size_t>(r)] = l;
            const double loss = wr * (static_cast<double>(l) - convert<double>(xp[r * C + c]));
            losses.data_ptr()[r] = convert<T>(loss);
            total += loss;
        }
    });
    Tensor<T> result = reduction == Reduction::None ? losses
                       : full<T>({}, reduction == Reduction::Mean ? total / total_weight : total);
    const double scale = reduction == Reduction::Mean ? 1.0 / total_weight : 1.0;
    record_function(
        "NllLossBackward0", result, {x},
        [x, t, lse = std::move(lse), row_weight = std::move(row_weight), N, C, scale, reduction](const TensorBase& grad) {
            const Tensor<T> g = Tensor<T>(grad.impl_ptr()).contiguous();
            Tensor<T> dx(make_contiguous_impl({N, C}, dtype_of<T>, x.device()));
            T* d = dx.data_ptr();
            const T* xp = x.data_ptr();
            run_vectorised([&] {
                for (int64_t r = 0; r < N; ++r) {
                    const double gr = convert<double>(g.data_ptr()[reduction == Reduction::None ? r : 0]);
                    const Cmp coef = static_cast<Cmp>(gr * row_weight[static_cast<size_t>(r)] * scale);
                    const Cmp l = lse[static_cast<size_t>(r)];
                    T* dr = d + r * C;
                    const T* xr = xp + r * C;
                    TENET_SIMD_LOOP
                    for (int64_t j = 0; j < C; ++j) dr[j] = static_cast<T>(coef * tenet::detail::exp(static_cast<Cmp>(xr[j]) - l));
                    if (row_weight[static_cast<size_t>(r)] != 0) {
                        const int64_t c = t.data_ptr()[r];
                        dr[c] = static_cast<T>(static_cast<Cmp>(dr[c]) - coef);
                    }
                }
            });
            return std::array<TensorBase, 1>{dx};
        },
        input);
    return result;
}

}  // namespace detail

/// F.mse_loss(input, target, reduction): the mean (or sum, or none) of (input - target)^2.
template <class T>
Tensor<T> mse_loss(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean") {
    detail::check_same_shape(input, target, "mse_loss");
    return detail::reduce_loss<T>(square(input - target), detail::parse_reduction(reduction, "mse_loss"));
}

/// F.l1_loss(input, target, reduction): |input - target|, reduced.
template <class T>
Tensor<T> l1_loss(const Tensor<T>& input, const detail::Same<T>& target, std::string_view reduction = "mean") {
    detail::check_same_shape(input, target, "l1_loss");
    return detail::reduce_loss<T>(abs(input - target), detail::parse_reduction(reduction, "l1_loss"));
}

/// F.binary_cross_entropy(input, target, weight, reduction): input holds probabilities; its
/// logarithms are clamped at -100, as PyTorch's.
template <class T>
Tensor<T> binary_cross_entropy(const Tensor<T>& input, const detail::Same<T>& target, const detail::Same<T>& weight = {},
                               std::string_view reduction = "mean") {
    detail::check_same_shape(input, target, "binary_cross_entropy");
    const auto r = detail::parse_reduction(reduction, "binary_cross_entropy");
    const auto loss = -(target * clamp_min(log(input), -100) + (1 - target) * clamp_min(log(1 - input), -100));
    if (weight.defined()) return detail::reduce_loss<T>(loss * weight, r);
    return detail::reduce_loss<T>(loss, r);
}

/// F.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight): sigmoid and
/// binary cross entropy in one stable formula.
template <class T>
Tensor<T> binary_cross_entropy_with_logits(const Tensor<T>& input, const detail::Same<T>& target,
                                           const detail::Same<T>& weight = {}, std::string_view reduction = "mean",
                                           const detail::Same<T>& pos_weight = {}) {
    detail::check_same_shape(input, target, "binary_cross_entropy_with_logits");
    const auto r = detail::parse_reduction(reduction, "binary_cross_entropy_with_logits");
    // log(1 + exp(-x)) = max(-x, 0) + log1p(exp(-|x|)): no overflow for any x.
    const auto softplus_neg = clamp_min(-input, 0) + log1p(exp(-abs(input)));
    Tensor<T> w = weight.defined() ? weight : ones_like(input);
    if (pos_weight.defined()) {
        const auto lw = 1 + (pos_weight - 1) * target;
        return detail::reduce_loss<T>(w * ((1 - target) * input + lw * softplus_neg), r);
    }
    return detail::reduce_loss<T>(w * ((1 - target) * input + softplus_neg), r);
}

/// F.nll_loss(input, target, weight, ignore_index, reduction): input holds log-probabilities
/// [N, C] or [N, C, d1, ...] (or [C]), target the class indices [N] or [N, d1, ...]; mean divides
/// by the total weight of the targets that are not ignore_index. An index outside [0, C) raises
/// index_error.
template <class T>
Tensor<T> nll_loss(const Tensor<T>& input, const Tensor<int64_t>& target, const detail::Same<T>& weight = {},
                   int64_t ignore_index = -100, std::string_view reduction = "mean") {
    return detail::nll_loss_impl(input, target, weight, ignore_index, detail::parse_reduction(reduction, "nll_loss"));
}

/// F.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing) with class
/// indices: log_softmax over dim 1 (dim 0 for an unbatched [C] input), then nll_loss; label
/// smoothing mixes in the mean of -log p over the classes, as PyTorch.
template <class T>
Tensor<T> cross_entropy(const Tensor<T>& input, const Tensor<int64_t>& target, const detail::Same<T>& weight = {},
                        int64_t ignore_index = -100, std::string_view reduction = "mean",
                        double label_smoothing = 0.0) {
    const auto r = detail::parse_reduction(reduction, "cross_entropy");
    if (label_smoothing < 0 || label_smoothing > 1)
        detail::fail<value_error>("cross_entropy: label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    if (label_smoothing == 0 && input.dim() == 2 && input.device().is_cpu())
        return detail::cross_entropy_rows(input, target, weight, ignore_index, r);
    const int64_t class_dim = input.dim() >= 2 ? 1 : 0;
    const Tensor<T> logp = log_softmax(input, class_dim);
    Tensor<T> nll = detail::nll_loss_impl(logp, target, weight, ignore_index, r);
    if (label_smoothing == 0) return nll;
    const int64_t C = input.size(class_dim);
    IntArray class_shape(static_cast<size_t>(input.dim()), 1);
    class_shape[static_cast<size_t>(class_dim)] = C;
    Tensor<T> smooth = weight.defined() ? Tensor<T>(-sum(logp * weight.view(class_shape), class_dim))
                                        : Tensor<T>(-sum(logp, class_dim));
    const Tensor<T> kept = cast<T>(target != ignore_index);
    smooth = Tensor<T>(smooth * kept);
    Tensor<T> term;
    if (r == detail::Reduction::Mean) {
        // Divided by the kept targets' total weight (their number without weights), as nll_loss.
        term = Tensor<T>(sum(smooth) / detail::target_weights(target, weight, C, ignore_index, "cross_entropy").total);
    } else if (r == detail::Reduction::Sum) {
        term = sum(smooth);
    } else {
        term = smooth;
    }
    return Tensor<T>((1 - label_smoothing) * nll + term * (label_smoothing / static_cast<double>(C)));
}

/// F.cross_entropy with class probabilities as the target (input's shape): -sum(target *
/// log_softmax(input)) over the classes, smoothed as PyTorch; mean divides by the number of
/// samples (every element but the class dim).
template <class T>
Tensor<T> cross_entropy(const Tensor<T>& input, const detail::Same<T>& target, const detail::Same<T>& weight = {},
                        int64_t ignore_index = -100, std::string_view reduction = "mean",
                        double label_smoothing = 0.0) {
    (void)ignore_index;  // PyTorch ignores it for probability targets too
    const auto r = detail::parse_reduction(reduction, "cross_entropy");
    detail::check_same_shape(input, target, "cross_entropy");
    const int64_t class_dim = input.dim() >= 2 ? 1 : 0;
    const int64_t C = input.size(class_dim);
    const Tensor<T> logp = log_softmax(input, class_dim);
    const Tensor<T> p = label_smoothing > 0 ? Tensor<T>(target * (1 - label_smoothing) + label_smoothing / static_cast<double>(C))
                                            : target;
    IntArray class_shape(static_cast<size_t>(input.dim()), 1);
    class_shape[static_cast<size_t>(class_dim)] = C;
    const Tensor<T> terms = weight.defined() ? Tensor<T>(logp * weight.view(class_shape) * p) : Tensor<T>(logp * p);
    if (r == detail::Reduction::None) return Tensor<T>(-sum(terms, class_dim));
    const Tensor<T> total = sum(terms);
    if (r == detail::Reduction::Sum) return Tensor<T>(-total);
    return Tensor<T>(-total / static_cast<double>(input.numel() / std::max<int64_t>(C, 1)));
}

}  // namespace tenet::nn::functional
