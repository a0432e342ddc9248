#pragma once
// tenet's linear algebra (tenet::linalg): decompositions and solvers through Eigen (eigh, svd,
// qr, cholesky, inv, det, slogdet, solve, lstsq, matrix norms). The only module header that
// includes Eigen's decompositions.

#include "tenet/ops.hpp"

#include "tenet/linalg/decompositions.hpp"

#if TENET_AUTOGRAD
#include "tenet/autograd/decompositions.hpp"
#endif

#include "tenet/compiled/linalg_instantiations.hpp"
