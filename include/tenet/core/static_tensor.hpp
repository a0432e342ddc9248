#pragma once
// StaticTensor<T, Shape<...>>: a Tensor<T> whose shape is also part of its type. It is a
// Tensor<T> (every function and view accepts it; views return plain tensors), and in
// expressions its static shape takes part in compile-time broadcasting: two static
// shapes that cannot broadcast do not compile. Converting from a plain tensor or an
// expression checks the run-time sizes against the static shape.

#include "tenet/config.hpp"
#include "tenet/core/static_shape.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

template <class T, StaticShape S>
class StaticTensor : public Tensor<T> {
public:
    using static_shape = S;

    /// An undefined tensor.
    StaticTensor() = default;
    /// Adopts a tensor whose sizes fit S; throws shape_error otherwise.
    StaticTensor(Tensor<T> t) : Tensor<T>(std::move(t)) { check(); }  // NOLINT: implicit on purpose
    /// Evaluates an expression whose shape fits S (checked at compile time when the
    /// expression's shape is static, at run time otherwise).
    template <TensorExpression E>
    StaticTensor(const E& e) : Tensor<T>(e) {  // NOLINT: implicit on purpose
        static_assert(static_assignable<typename E::static_shape, S>::value);
        check();
    }

private:
    void check() const {
        if (this->defined() && !fits_static_shape<S>(this->sizes()))
            detail::fail<shape_error>("StaticTensor: a tensor of shape ", this->sizes(), " does not fit ", S{});
    }
};

}  // namespace tenet
