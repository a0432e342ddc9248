// Printing: every case of print_cases.inc (generated from PyTorch by
// tests/golden/gen_print.py) must print exactly as PyTorch's repr, under the print options the
// case sets (torch.set_printoptions), plus hand-written views and the options' own rules.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <thread>

#include "tenet/tenet.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

namespace {

struct PrintCase {
    const char* name;
    const char* dtype;
    std::vector<int64_t> shape;
    const double* floats;  // the stored values of a floating case, else nullptr
    const int64_t* ints;   // the stored values of an integral or bool case, else nullptr
    size_t count;          // element k of the tensor is value[k % count]
    const char* view;      // ops applied after filling, as in gen_print.py
    std::vector<tenet::PrintOptions> settings;  // set_printoptions calls made before printing, in order
    const char* expected;  // nullptr: PyTorch's repr raises, tenet throws value_error
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
    REQUIRE(std::size(print_cases) > 200);
    size_t with_options = 0;
    for (const PrintCase& c : print_cases) {
        INFO("case: " << c.name << " (" << c.dtype << ")");
        const tenet::PrintOptionsGuard guard;
        for (const tenet::PrintOptions& o : c.settings) tenet::set_printoptions(o);
        with_options += !c.settings.empty();
        if (c.expected == nullptr) REQUIRE_THROWS_AS(print_case(c), tenet::value_error);
        else REQUIRE(print_case(c) == c.expected);
    }
    REQUIRE(with_options >= 100);
}

namespace {

void require_defaults(const tenet::PrintOptions& o) {
    REQUIRE(o.precision == 4);
    REQUIRE(o.threshold == 1000.0);
    REQUIRE(o.edgeitems == 3);
    REQUIRE(o.linewidth == 80);
    REQUIRE_FALSE(o.profile.has_value());
    REQUIRE_FALSE(o.sci_mode.has_value());
}

const PrintCase& find_case(const char* name) {
    for (const PrintCase& c : print_cases)
        if (std::string(c.name) == name) return c;
    FAIL("no case " << name);
    return print_cases[0];
}

}  // namespace

TEST_CASE("print options: the defaults are PyTorch's, and a guard restores them") {
    require_defaults(tenet::get_printoptions());
    const PrintCase& summarised = find_case("f32 summarised 2-D");  // a default-options case
    REQUIRE(summarised.settings.empty());
    {
        const tenet::PrintOptionsGuard guard({.precision = 1, .threshold = 3, .edgeitems = 1, .linewidth = 10,
                                              .sci_mode = true});
        const tenet::PrintOptions o = tenet::get_printoptions();
        REQUIRE(o.precision == 1);
        REQUIRE(o.threshold == 3.0);
        REQUIRE(o.edgeitems == 1);
        REQUIRE(o.linewidth == 10);
        REQUIRE(o.sci_mode == true);
        REQUIRE(print_case(summarised) != summarised.expected);
    }
    require_defaults(tenet::get_printoptions());
    REQUIRE(print_case(summarised) == summarised.expected);
}

TEST_CASE("print options: a guard restores on an exception and nests") {
    try {
        const tenet::PrintOptionsGuard outer({.profile = "short"});
        {
            const tenet::PrintOptionsGuard inner({.linewidth = 20, .sci_mode = false});
            REQUIRE(tenet::get_printoptions().precision == 2);
            REQUIRE(tenet::get_printoptions().linewidth == 20);
        }
        const tenet::PrintOptions o = tenet::get_printoptions();
        REQUIRE(o.precision == 2);
        REQUIRE(o.edgeitems == 2);
        REQUIRE(o.linewidth == 80);
        REQUIRE_FALSE(o.sci_mode.has_value());
        throw std::runtime_error("leave");
    } catch (const std::runtime_error&) {
    }
    require_defaults(tenet::get_printoptions());
}

TEST_CASE("print options: unset fields stay, sci_mode returns to automatic, profiles reset four") {
    const tenet::PrintOptionsGuard guard;
    tenet::set_printoptions({.precision = 7, .linewidth = 33, .sci_mode = true});
    tenet::set_printoptions({.edgeitems = 5});
    tenet::PrintOptions o = tenet::get_printoptions();
    REQUIRE(o.precision == 7);
    REQUIRE(o.linewidth == 33);
    REQUIRE(o.edgeitems == 5);
    REQUIRE_FALSE(o.sci_mode.has_value());  // as torch.set_printoptions(edgeitems=5)

    tenet::set_printoptions({.precision = 6, .profile = "full", .sci_mode = false});
    o = tenet::get_printoptions();
    REQUIRE(o.precision == 6);
    REQUIRE(std::isinf(*o.threshold));
    REQUIRE(o.edgeitems == 3);
    REQUIRE(o.linewidth == 80);
    REQUIRE(o.sci_mode == false);

    // get_printoptions round-trips, sci_mode included.
    const tenet::PrintOptions saved = tenet::get_printoptions();
    tenet::set_printoptions({.profile = "short"});
    tenet::set_printoptions(saved);
    o = tenet::get_printoptions();
    REQUIRE(o.precision == 6);
    REQUIRE(std::isinf(*o.threshold));
    REQUIRE(o.sci_mode == false);

    tenet::set_printoptions({.profile = "default"});
    require_defaults(tenet::get_printoptions());
}

TEST_CASE("print options: bad values throw value_error and change nothing") {
    const tenet::PrintOptionsGuard guard({.precision = 3, .sci_mode = true});
    auto unchanged = [] {
        const tenet::PrintOptions o = tenet::get_printoptions();
        REQUIRE(o.precision == 3);
        REQUIRE(o.threshold == 1000.0);
        REQUIRE(o.sci_mode == true);
    };
    auto message = [](const tenet::PrintOptions& bad) -> std::string {
        try {
            tenet::set_printoptions(bad);
        } catch (const tenet::value_error& e) {
            return e.what();
        }
        return "no exception";
    };
    REQUIRE(message({.precision = -1}) == "set_printoptions: precision must be >= 0, got -1");
    unchanged();
    REQUIRE(message({.threshold = 10, .edgeitems = -2}) == "set_printoptions: edgeitems must be >= 0, got -2");
    unchanged();
    REQUIRE(message({.threshold = std::numeric_limits<double>::quiet_NaN()}) == "set_printoptions: threshold is NaN");
    unchanged();
    REQUIRE(message({.threshold = 5, .profile = "long"}) ==
            R"(set_printoptions: profile must be "default", "short" or "full", got "long")");
    unchanged();
    REQUIRE_THROWS_AS(tenet::PrintOptionsGuard({.precision = -3}), tenet::value_error);
    unchanged();
}

TEST_CASE("print options: edgeitems 0 refuses to summarise two or more dims, as PyTorch") {
    const tenet::PrintOptionsGuard guard({.threshold = 2, .edgeitems = 0});
    auto t = tenet::zeros<float>({2, 2});
    try {
        (void)tenet::to_string(t);
        FAIL("no exception");
    } catch (const tenet::value_error& e) {
        REQUIRE(std::string(e.what()).find("edgeitems=0 cannot summarise a tensor of 2 dims") != std::string::npos);
    }
    // Below the threshold nothing is summarised, so edgeitems does not matter.
    tenet::set_printoptions({.threshold = 4});
    REQUIRE(tenet::to_string(t) == "tensor([[0., 0.],\n        [0., 0.]])");
}

TEST_CASE("print options: a print on another thread sees the old or the new options, never a mix") {
    // Two settings that change every option; each print must match one of them entirely.
    const PrintCase& c = find_case("f32 summarised 2-D");
    const tenet::PrintOptions a{.precision = 2, .threshold = 100, .edgeitems = 1, .linewidth = 40, .sci_mode = true};
    const tenet::PrintOptions b{.precision = 6, .threshold = 10000, .edgeitems = 4, .linewidth = 200, .sci_mode = false};
    const tenet::PrintOptionsGuard guard;
    tenet::set_printoptions(a);
    const std::string text_a = print_case(c);
    tenet::set_printoptions(b);
    const std::string text_b = print_case(c);
    REQUIRE(text_a != text_b);

    std::atomic<bool> stop{false};
    std::thread setter([&] {
        for (int i = 0; !stop.load(); ++i) tenet::set_printoptions(i % 2 ? a : b);
    });
    int mixed = 0;
    for (int i = 0; i < 200; ++i) {
        auto t = tenet::empty<float>({50, 50});
        for (int64_t k = 0; k < t.numel(); ++k) t.data_ptr()[k] = static_cast<float>(c.floats[static_cast<size_t>(k) % c.count]);
        const std::string s = tenet::to_string(t);
        mixed += s != text_a && s != text_b;
    }
    stop = true;
    setter.join();
    REQUIRE(mixed == 0);
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

}}  // namespace TENET_TEST_FILE
