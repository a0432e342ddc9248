#pragma once
// tenet::autograd::gradcheck: the analytic gradient (backward) against central finite
// differences, in float64, as torch.autograd.gradcheck.
//
//   auto f = [](const std::vector<Tensor<double>>& in) { return Tensor<double>(sin(in[0]) * in[1]); };
//   autograd::gradcheck(f, {randn({3}, kFloat64), randn({3}, kFloat64)});  // throws on a mismatch
//   autograd::gradgradcheck(f, {randn({3}, kFloat64), randn({3}, kFloat64)});  // second derivatives

#include "tenet/config.hpp"
#include <cmath>
#include <sstream>
#include <vector>

#include "tenet/autograd/grad.hpp"
#include "tenet/core/grad_mode.hpp"
#include "tenet/autograd/tensor_autograd.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"
#include "tenet/ops/creation.hpp"
#include "tenet/ops/join.hpp"

namespace tenet::inline TENET_ABI::autograd {

/// Thrown when the analytic and numerical Jacobians differ (PyTorch's GradcheckError).
struct gradcheck_error : error {
    using error::error;
};

/// Checks d f(inputs) / d inputs. f maps the inputs (float64 host tensors; each is made a
/// contiguous leaf that requires grad) to a float64 tensor. Every Jacobian entry must
/// satisfy |analytic - numerical| <= atol + rtol * |numerical|. Returns true or throws
/// gradcheck_error naming the input, the entries and both values.
template <class F>
bool gradcheck(F&& f, std::vector<Tensor<double>> inputs, double eps = 1e-6, double atol = 1e-5,
               double rtol = 1e-3) {
    for (auto& x : inputs) {
        if (!x.is_cpu())
            detail::fail<device_error>("gradcheck: perturbs its inputs element by element on the host; got an input on ",
                                       x.device(), " (move it with .cpu())");
        NoGradGuard no_grad;
        x = x.detach().clone();
    }
    for (auto& x : inputs) x.requires_grad_();
    auto evaluate = [&]() -> Tensor<double> {
        NoGradGuard no_grad;
        Tensor<double> y = f(inputs);
        return y.contiguous();
    };
    const Tensor<double> y0 = evaluate();
    const int64_t m = y0.numel();
    for (size_t i = 0; i < inputs.size(); ++i) {
        Tensor<double>& x = inputs[i];
        const int64_t n = x.numel();
        // Numerical Jacobian, one input element (column) at a time.
        std::vector<double> numerical(static_cast<size_t>(m * n));
        double* p = x.data_ptr();
        for (int64_t j = 0; j < n; ++j) {
            const double saved = p[j];
            p[j] = saved + eps;
            const std::vector<double> plus = evaluate().to_vector();
            p[j] = saved - eps;
            const std::vector<double> minus = evaluate().to_vector();
            p[j] = saved;
            for (int64_t k = 0; k < m; ++k)
                numerical[static_cast<size_t>(k * n + j)] = (plus[static_cast<size_t>(k)] - minus[static_cast<size_t>(k)]) / (2 * eps);
        }
        // Analytic Jacobian, one output element (row) at a time.
        for (int64_t k = 0; k < m; ++k) {
            for (auto& in : inputs) in.reset_grad();
            Tensor<double> y = f(inputs);
            if (!y.requires_grad()) {
                for (int64_t j = 0; j < n; ++j)
                    if (numerical[static_cast<size_t>(k * n + j)] != 0)
                        detail::fail<gradcheck_error>("gradcheck: the output does not require grad but input ", i,
                                                      " has a nonzero numerical gradient");
                continue;
            }
            Tensor<double> onehot = zeros<double>(y.sizes());
            onehot.data_ptr()[k] = 1;
            y.backward(onehot);
            const Tensor<double> g = x.grad();
            for (int64_t j = 0; j < n; ++j) {
                const double a = g.defined() ? g.contiguous().data_ptr()[j] : 0.0;
                const double num = numerical[static_cast<size_t>(k * n + j)];
                if (!(std::abs(a - num) <= atol + rtol * std::abs(num)))
                    detail::fail<gradcheck_error>("gradcheck: Jacobian mismatch for output ", k, " with respect to input ",
                                                  i, " element ", j, ": analytic ", a, ", numerical ", num);
            }
        }
    }
    for (auto& in : inputs) in.reset_grad();
    return true;
}

/// Checks the second derivatives of f, as torch.autograd.gradgradcheck: gradcheck of the
/// map inputs -> d(sum(f(inputs) * v))/d(inputs), for a fixed v of f's output shape, whose
/// gradients come from autograd::grad with create_graph. So the recorded backward of f is
/// differentiated and compared with finite differences of f's backward.
template <class F>
bool gradgradcheck(F&& f, std::vector<Tensor<double>> inputs, double eps = 1e-6, double atol = 1e-5,
                   double rtol = 1e-3) {
    Tensor<double> v;
    {
        NoGradGuard no_grad;
        std::vector<Tensor<double>> values;
        for (const auto& x : inputs) values.push_back(x.detach());
        const Tensor<double> y = f(values);
        v = empty<double>(y.sizes());
        double* p = v.data_ptr();
        for (int64_t k = 0; k < v.numel(); ++k) p[k] = std::cos(1.0 + static_cast<double>(k));  // fixed, nonzero
    }
    auto first_derivatives = [&](const std::vector<Tensor<double>>& xs) -> Tensor<double> {
        AutoGradMode grad_mode(true);  // gradcheck evaluates its function under no_grad too
        const Tensor<double> y = f(xs);
        std::vector<Tensor<double>> flat;
        if (!y.requires_grad()) {
            for (const auto& x : xs) flat.push_back(zeros<double>({x.numel()}));
            return cat(flat);
        }
        const std::vector<Tensor<double>> gs = grad<double>({y}, xs, {v}, true, true, /*allow_unused=*/true);
        for (size_t k = 0; k < xs.size(); ++k)
            flat.push_back(gs[k].defined() ? gs[k].reshape({xs[k].numel()}) : zeros<double>({xs[k].numel()}));
        return cat(flat);
    };
    return gradcheck(first_derivatives, std::move(inputs), eps, atol, rtol);
}

}  // namespace tenet::autograd
