#pragma once
// The tensors that the [python-check] cases of test_npy.cpp and test_pt.cpp write, whose values
// check_npy.py and check_pt.py recompute.
#include <tenet/tenet.hpp>

#include <type_traits>

namespace python_check {

/// The python-check rule (also in check_npy.py and check_pt.py): element i of a base tensor of n
/// elements is bool: i % 2 == 1; uint8: i; other integers: i - 3; floats: (i - 3) * 0.5.
inline tenet::TensorBase base_tensor(tenet::DType dtype, const tenet::IntArray& sizes) {
    using namespace tenet;
    return visit_dtype(dtype, [&]<class U>(dtype_t<U>) -> TensorBase {
        Tensor<U> t = empty<U>(sizes);
        U* p = t.data_ptr();
        for (int64_t i = 0; i < t.numel(); ++i) {
            if constexpr (std::is_same_v<U, bool>) p[i] = i % 2 == 1;
            else if constexpr (std::is_same_v<U, uint8_t>) p[i] = static_cast<uint8_t>(i);
            else if constexpr (std::is_integral_v<U>) p[i] = static_cast<U>(i - 3);
            else p[i] = convert<U>((static_cast<double>(i) - 3) * 0.5);
        }
        return t;
    });
}

}  // namespace python_check
