#pragma once
// tenet's sparse COO tensors (PyTorch's torch.sparse_coo layout): SparseTensor<T>,
// sparse_coo_tensor, coalesce, to_dense, to_sparse (<tenet/sparse/sparse_tensor.hpp>), sparse +
// sparse, sparse * scalar, sparse::sum over all or some dims (<tenet/sparse/arithmetic.hpp>), mm,
// addmm, sparse::mm (<tenet/sparse/matmul.hpp>), printing (<tenet/sparse/print.hpp>). Not part
// of <tenet/tenet.hpp>: include this header explicitly. Gradients reach the dense operands of
// the products and, through coalesce, to_dense, +, *, sum and sparse::mm, a sparse tensor's
// values (sparse_tensor.hpp).

#include "tenet/config.hpp"
#include "tenet/core.hpp"
#include "tenet/sparse/arithmetic.hpp"
#include "tenet/sparse/matmul.hpp"
#include "tenet/sparse/print.hpp"
#include "tenet/sparse/sparse_tensor.hpp"
