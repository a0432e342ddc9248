// The PyTorch-generated unary math cases (tests/expr/math_cases.inc) with every input on the
// device (tests/placement.hpp): functions, methods, strided inputs and in-place forms.
#include "../expr/math_check.hpp"

using namespace math_case;
#include "../expr/math_cases.inc"
