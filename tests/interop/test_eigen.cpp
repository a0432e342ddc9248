// The Eigen bridge (to_eigen, to_eigen_vector, from_eigen / tensor_from) and span(t): zero-copy
// both ways, every layout a stride can express. Expected values are arithmetic on the indices
// (arange: element [i, j] of a row-major 3x4 is 4 i + j).
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "tenet/tenet.hpp"
#include "tenet/interop.hpp"

#include "../require_throws.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using Catch::Matchers::Contains;
using namespace tenet::indexing;


namespace {
tenet::Tensor<float> grid34() { return tenet::arange(12.0f).reshape({3, 4}); }  // [i, j] = 4 i + j
}  // namespace

TEST_CASE("eigen: to_eigen maps a contiguous matrix and writes go both ways", "[interop][eigen]") {
    auto t = grid34();
    auto m = tenet::to_eigen(t);
    REQUIRE(m.rows() == 3);
    REQUIRE(m.cols() == 4);
    REQUIRE(m.outerStride() == 4);
    REQUIRE(m.innerStride() == 1);
    REQUIRE(m.data() == t.data_ptr());
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) REQUIRE(m(i, j) == float(4 * i + j));
    m(1, 2) = -5.0f;  // Eigen -> tensor
    REQUIRE(t(1, 2) == -5.0f);
    t.index({2, 3}) = 100.0f;  // tensor -> Eigen
    REQUIRE(m(2, 3) == 100.0f);
    // Eigen arithmetic on the map: row sums of the (modified) grid.
    Eigen::VectorXf sums = m.rowwise().sum();
    REQUIRE(sums(0) == 0.0f + 1 + 2 + 3);
    REQUIRE(sums(1) == 4.0f + 5 - 5 + 7);
    REQUIRE(sums(2) == 8.0f + 9 + 10 + 100);
}

TEST_CASE("eigen: to_eigen keeps the strides of transposed, sliced and offset views", "[interop][eigen]") {
    auto t = grid34();
    auto tt = t.t();  // 4x3, strides [1, 4]
    auto mt = tenet::to_eigen(tt);
    REQUIRE(mt.rows() == 4);
    REQUIRE(mt.cols() == 3);
    REQUIRE(mt.outerStride() == 1);
    REQUIRE(mt.innerStride() == 4);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) REQUIRE(mt(i, j) == float(4 * j + i));
    // t[1:, ::2]: offset 4, strides [4, 2]
    auto s = t.index({Slice(1, None), Slice(None, None, 2)});
    auto ms = tenet::to_eigen(s);
    REQUIRE(ms.rows() == 2);
    REQUIRE(ms.cols() == 2);
    REQUIRE(ms.outerStride() == 4);
    REQUIRE(ms.innerStride() == 2);
    REQUIRE(ms.data() == t.data_ptr() + 4);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) REQUIRE(ms(i, j) == float(4 * (i + 1) + 2 * j));
    ms(1, 1) = 42.0f;  // element [2, 2] of t
    REQUIRE(t(2, 2) == 42.0f);
}

TEST_CASE("eigen: to_eigen of an expanded tensor reads through a zero stride", "[interop][eigen]") {
    auto row = tenet::arange(3.0f);        // [0, 1, 2]
    auto e = row.expand({4, 3});           // strides [0, 1]
    auto m = tenet::to_eigen(e);
    REQUIRE(m.outerStride() == 0);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) REQUIRE(m(i, j) == float(j));
    REQUIRE(m.sum() == 4.0f * (0 + 1 + 2));
    m(3, 1) = 9.0f;  // aliases: every row's column 1 is the one element row[1]
    REQUIRE(m(0, 1) == 9.0f);
    REQUIRE(row(1) == 9.0f);
}

TEST_CASE("eigen: to_eigen_vector maps 1-D tensors with their stride", "[interop][eigen]") {
    auto t = grid34();
    auto col = t.select(1, 1);  // [1, 5, 9], stride 4
    auto v = tenet::to_eigen_vector(col);
    REQUIRE(v.size() == 3);
    REQUIRE(v.innerStride() == 4);
    REQUIRE(v(0) == 1.0f);
    REQUIRE(v(1) == 5.0f);
    REQUIRE(v(2) == 9.0f);
    REQUIRE(v.dot(Eigen::Vector3f(1, 1, 1)) == 15.0f);
    v(2) = -1.0f;
    REQUIRE(t(2, 1) == -1.0f);
    // Integer element types keep their type.
    auto ints = tenet::arange(5);  // int64
    auto vi = tenet::to_eigen_vector(ints);
    static_assert(std::is_same_v<decltype(vi)::Scalar, int64_t>);
    REQUIRE(vi.sum() == 0 + 1 + 2 + 3 + 4);
}

TEST_CASE("eigen: to_eigen refuses tensors that are not 2-D, to_eigen_vector those not 1-D", "[interop][eigen]") {
    auto scalar = tenet::tensor({1.0f}).reshape({});
    TENET_REQUIRE_THROWS(tenet::to_eigen(scalar), tenet::shape_error,
                         Contains("to_eigen: expected a 2-D tensor") && Contains("shape []"));
    auto three = tenet::arange(24.0f).reshape({2, 3, 4});
    TENET_REQUIRE_THROWS(tenet::to_eigen(three), tenet::shape_error, Contains("[2, 3, 4]") && Contains("3-D"));
    TENET_REQUIRE_THROWS(tenet::to_eigen(tenet::arange(3.0f)), tenet::shape_error,
                         Contains("[3]") && Contains("use to_eigen_vector"));
    TENET_REQUIRE_THROWS(tenet::to_eigen_vector(grid34()), tenet::shape_error,
                         Contains("to_eigen_vector: expected a 1-D tensor") && Contains("[3, 4]") &&
                             Contains("use to_eigen"));
}

TEST_CASE("eigen: from_eigen shares a row-major and a column-major matrix", "[interop][eigen]") {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r(2, 3);
    r << 1, 2, 3, 4, 5, 6;
    auto tr = tenet::from_eigen(r);
    static_assert(std::is_same_v<decltype(tr), tenet::Tensor<double>>);
    REQUIRE(tr.sizes() == tenet::IntArray{2, 3});
    REQUIRE(tr.strides() == tenet::IntArray{3, 1});
    REQUIRE(tr.data_ptr() == r.data());
    REQUIRE(tr(1, 0) == 4.0);

    Eigen::MatrixXd c(2, 3);  // column-major
    c << 1, 2, 3, 4, 5, 6;
    auto tc = tenet::from_eigen(c);
    REQUIRE(tc.sizes() == tenet::IntArray{2, 3});
    REQUIRE(tc.strides() == tenet::IntArray{1, 2});
    REQUIRE(tc.data_ptr() == c.data());
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) REQUIRE(tc(i, j) == c(i, j));
    // Writes both ways (as the seed's NumPy example: the array changes, the tensor sees it).
    c(1, 2) = 60;
    REQUIRE(tc(1, 2) == 60.0);
    tc.index({0, 1}) = 20.0;
    REQUIRE(c(0, 1) == 20.0);
    // A tenet op on the shared tensor reads Eigen's layout correctly: sum over rows.
    auto col_sums = tc.sum(0);
    REQUIRE(col_sums(0) == 1.0 + 4);
    REQUIRE(col_sums(1) == 20.0 + 5);
    REQUIRE(col_sums(2) == 3.0 + 60);
}

TEST_CASE("eigen: from_eigen shares blocks, strided maps, Refs and vectors", "[interop][eigen]") {
    Eigen::MatrixXf a(4, 5);  // column-major, a(i, j) = 10 i + j
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 5; ++j) a(i, j) = float(10 * i + j);
    auto block = tenet::from_eigen(a.block(1, 2, 2, 3));  // rows 1-2, cols 2-4
    REQUIRE(block.sizes() == tenet::IntArray{2, 3});
    REQUIRE(block.strides() == tenet::IntArray{1, 4});
    REQUIRE(block.data_ptr() == &a(1, 2));
    REQUIRE(block(1, 2) == 24.0f);
    block.index({0, 0}) = -1.0f;
    REQUIRE(a(1, 2) == -1.0f);

    // A map with run-time strides: every other element of a buffer, read as 2x3 row-major.
    std::vector<int32_t> buf(16);
    for (int k = 0; k < 16; ++k) buf[k] = k;
    using RowMap = Eigen::Map<Eigen::Matrix<int32_t, 2, 3, Eigen::RowMajor>, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
    RowMap map(buf.data(), Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(7, 2));
    auto tm = tenet::tensor_from(map);
    REQUIRE(tm.sizes() == tenet::IntArray{2, 3});
    REQUIRE(tm.strides() == tenet::IntArray{7, 2});
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) REQUIRE(tm(i, j) == 7 * i + 2 * j);

    Eigen::Ref<Eigen::MatrixXf> ref(a);
    auto tref = tenet::from_eigen(ref);
    REQUIRE(tref.data_ptr() == a.data());
    REQUIRE(tref.strides() == tenet::IntArray{1, 4});

    // Vector types give 1-D tensors; a row of a column-major matrix has stride rows().
    Eigen::VectorXd v(3);
    v << 1, 2, 3;
    auto tv = tenet::from_eigen(v);
    REQUIRE(tv.sizes() == tenet::IntArray{3});
    REQUIRE(tv.strides() == tenet::IntArray{1});
    auto row = tenet::from_eigen(a.row(3));
    REQUIRE(row.sizes() == tenet::IntArray{5});
    REQUIRE(row.strides() == tenet::IntArray{4});
    REQUIRE(row(4) == 34.0f);
}

TEST_CASE("eigen: from_eigen of an rvalue matrix moves it into the tensor, which owns it", "[interop][eigen]") {
    tenet::Tensor<double> t;
    const double* buffer = nullptr;
    {
        Eigen::MatrixXd m(3, 2);
        m << 1, 2, 3, 4, 5, 6;
        buffer = m.data();
        t = tenet::from_eigen(std::move(m));
    }  // m's moved-from shell is gone; the buffer lives in t's storage
    REQUIRE(t.data_ptr() == buffer);  // moved, not copied
    REQUIRE(t.sizes() == tenet::IntArray{3, 2});
    REQUIRE(t(2, 1) == 6.0);
    auto view = t.t();
    t = tenet::Tensor<double>();
    REQUIRE(view(1, 0) == 2.0);  // the last view keeps the matrix alive
    // A fixed-size matrix moves (copies) its inline elements into the owned object.
    auto f = tenet::from_eigen(Eigen::Matrix2f::Identity().eval());
    REQUIRE(f.sum().item() == 2.0f);
}

TEST_CASE("eigen: to_eigen and from_eigen round trip shares the memory", "[interop][eigen]") {
    auto t = grid34().t();
    auto m = tenet::to_eigen(t);
    auto back = tenet::from_eigen(m);
    REQUIRE(back.data_ptr() == t.data_ptr());
    REQUIRE(back.sizes() == t.sizes());
    REQUIRE(back.strides() == t.strides());
    back.index({3, 2}) = 7.5f;
    REQUIRE(t(3, 2) == 7.5f);
}

TEST_CASE("span: a contiguous host tensor as std::span", "[interop][span]") {
    auto t = grid34();
    std::span<float> s = tenet::span(t);
    REQUIRE(s.size() == 12);
    REQUIRE(s.data() == t.data_ptr());
    for (size_t k = 0; k < s.size(); ++k) REQUIRE(s[k] == float(k));
    s[5] = -3.0f;
    REQUIRE(t(1, 1) == -3.0f);
    // An offset but contiguous view: row 2.
    auto r2 = tenet::span(t[2]);
    REQUIRE(r2.size() == 4);
    REQUIRE(r2.data() == t.data_ptr() + 8);
    // A 0-d tensor is one element; an empty one none.
    REQUIRE(tenet::span(tenet::tensor({5}).reshape({})).size() == 1);
    REQUIRE(tenet::span(tenet::empty<double>({0, 3})).empty());
}

TEST_CASE("span: refuses a non-contiguous tensor, naming sizes and strides", "[interop][span]") {
    auto t = grid34();
    TENET_REQUIRE_THROWS(tenet::span(t.t()), tenet::value_error,
                         Contains("span: the tensor of sizes [4, 3] and strides [1, 4] is not contiguous"));
    TENET_REQUIRE_THROWS(tenet::span(t.index({Slice(), Slice(None, None, 2)})), tenet::value_error,
                         Contains("[3, 2]") && Contains("[4, 2]"));
}

}}  // namespace TENET_TEST_FILE
