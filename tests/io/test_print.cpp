// Printing: every case of print_cases.inc (generated from PyTorch by
// tests/golden/gen_print.py) must print exactly as PyTorch's repr, plus hand-written views.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "tenet/tenet.hpp"

namespace {

struct PrintCase {
    const char* name;
    const char* dtype;
    std::vector<int64_t> shape;
    const double* floats;  // the stored values of a floating case, else nullptr
    const int64_t* ints;   // the stored values of an integral or bool case, else nullptr
    size_t count;          // element k of the tensor is value[k % count]
    const char* view;      // ops applied after filling, as in gen_print.py
    const char* expected;
};

const double NAN_V = std::numeric_limits<double>::quiet_NaN();
const double INF_V = std::numeric_limits<double>::infinity();
const int64_t INT64_MIN_V = std::numeric_limits<int64_t>::min();

#include "print_cases.inc"

template <class T>
tenet::Tensor<T> apply_view(tenet::Tensor<T> t, const std::string& view) {
    std::istringstream ops(view);
    std::string op;
    while (std::getline(ops, op, ';')) {
        std::istringstream in(op);
        std::string name;
        if (!(in >> name)) continue;
        std::vector<int64_t> a;
        for (int64_t x; in >> x;) a.push_back(x);
        if (name == "transpose") t = t.transpose(a.at(0), a.at(1));
        else if (name == "narrow") t = t.narrow(a.at(0), a.at(1), a.at(2));
        else if (name == "select") t = t.select(a.at(0), a.at(1));
        else if (name == "slice") t = t.slice(a.at(0), a.at(1), a.at(2), a.at(3));
        else if (name == "expand") t = t.expand(tenet::IntArray(a));
        else if (name == "permute") t = t.permute(tenet::IntArray(a));
        else FAIL("unknown view op " << name);
    }
    return t;
}

template <class T>
std::string print_case(const PrintCase& c) {
    // (IntArray(std::vector) of an empty vector memcpy's from nullptr: UB that UBSan reports, so avoid it.)
    auto t = tenet::empty<T>(c.shape.empty() ? tenet::IntArray{} : tenet::IntArray(c.shape));
    T* out = t.data_ptr();
    for (int64_t k = 0, n = t.numel(); k < n; ++k) {
        const size_t i = static_cast<size_t>(k) % c.count;
        if constexpr (tenet::FloatingElement<T>) out[k] = T(c.floats[i]);
        else if constexpr (std::is_same_v<T, bool>) out[k] = c.ints[i] != 0;
        else out[k] = static_cast<T>(c.ints[i]);
    }
    t = apply_view(t, c.view);
    std::ostringstream os;
    os << t;
    const std::string streamed = os.str();
    CHECK(streamed == tenet::to_string(t));
    return streamed;
}

std::string print_case(const PrintCase& c) {
    const std::string d = c.dtype;
    if (d == "bool") return print_case<bool>(c);
    if (d == "uint8") return print_case<uint8_t>(c);
    if (d == "int8") return print_case<int8_t>(c);
    if (d == "int16") return print_case<int16_t>(c);
    if (d == "int32") return print_case<int32_t>(c);
    if (d == "int64") return print_case<int64_t>(c);
    if (d == "float16") return print_case<tenet::Half>(c);
    if (d == "bfloat16") return print_case<tenet::BFloat16>(c);
    if (d == "float32") return print_case<float>(c);
    if (d == "float64") return print_case<double>(c);
    FAIL("unknown dtype " << d);
    return {};
}

}  // namespace

TEST_CASE("print: matches PyTorch's repr for every generated case") {
    REQUIRE(std::size(print_cases) > 100);
    for (const PrintCase& c : print_cases) {
        INFO("case: " << c.name << " (" << c.dtype << ")");
        REQUIRE(print_case(c) == c.expected);
    }
}

TEST_CASE("print: a transposed view prints its logical values") {
    auto t = tenet::tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
    REQUIRE(tenet::to_string(t) == "tensor([[1., 2., 3.],\n        [4., 5., 6.]])");
    REQUIRE(tenet::to_string(t.t()) == "tensor([[1., 4.],\n        [2., 5.],\n        [3., 6.]])");
    REQUIRE_FALSE(t.t().is_contiguous());
}

TEST_CASE("print: a sliced view prints its logical values") {
    auto t = tenet::tensor(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
    REQUIRE(tenet::to_string(t.slice(1, 1, 4, 2)) == "tensor([[ 1,  3],\n        [ 5,  7],\n        [ 9, 11]], dtype=tenet.int32)");
    REQUIRE(tenet::to_string(t.select(1, 2)) == "tensor([ 2,  6, 10], dtype=tenet.int32)");
    REQUIRE(tenet::to_string(t.narrow(0, 1, 1).narrow(1, 3, 1)) == "tensor([[7]], dtype=tenet.int32)");
}

TEST_CASE("print: a summarised view reads only the shown elements") {
    // 10^8 elements through a stride-0 expansion of one row: only the edges are read.
    auto row = tenet::tensor(std::vector<double>{0.5, 1.5}, {1, 2});
    auto big = row.expand({50000000, 2});
    REQUIRE(tenet::to_string(big) ==
            "tensor([[0.5000, 1.5000],\n        [0.5000, 1.5000],\n        [0.5000, 1.5000],\n        ...,\n"
            "        [0.5000, 1.5000],\n        [0.5000, 1.5000],\n        [0.5000, 1.5000]], dtype=tenet.float64)");
}

TEST_CASE("print: defaults and undefined tensors need no device") {
    REQUIRE(tenet::to_string(tenet::tensor(3.5f)) == "tensor(3.5000)");
    REQUIRE(tenet::to_string(tenet::zeros<float>({0, 3})) == "tensor([], size=(0, 3))");
    REQUIRE(tenet::to_string(tenet::empty<int32_t>({0})) == "tensor([], dtype=tenet.int32)");
    REQUIRE(tenet::to_string(tenet::arange(5)) == "tensor([0, 1, 2, 3, 4])");
    REQUIRE(tenet::to_string(tenet::ones<bool>({2})) == "tensor([True, True])");
    REQUIRE(tenet::to_string(tenet::Tensor<float>()) == "[ Tensor (undefined) ]");
    std::ostringstream os;
    os << tenet::full<int8_t>({2}, 7) << '|' << tenet::tensor(std::vector<double>{1e-5});
    REQUIRE(os.str() == "tensor([7, 7], dtype=tenet.int8)|tensor([1.0000e-05], dtype=tenet.float64)");
}
