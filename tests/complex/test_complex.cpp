// Complex tensors against PyTorch 1.13 (tests/golden/gen_complex.py writes the cases): pointwise
// math, arithmetic and promotion, creation, reductions, views of the parts, printing, errors.
// Data-driven: one instantiation per op and dtype, the cases read at run time. A placed file
// (tests/CMakeLists.txt): the pointwise, arithmetic, make_complex/polar and reduction cases put
// their inputs where tests/placement.hpp says, so the emulated device runs them too.
#include "../placement.hpp"
#include "../require_throws.hpp"
#include "complex_golden.hpp"

// Unique per file in a unity build (tests/CMakeLists.txt).
namespace { namespace TENET_TEST_FILE {

using namespace tenet;
using golden::Case;
using golden::Golden;
using golden::GoldenFile;
using complex_golden::check_close;
using c64 = complex<float>;
using c128 = complex<double>;

namespace {

const GoldenFile& cases() { return golden::cached(__FILE__, "complex_cases.txt"); }

const Golden& input_of(const Case& c, const std::string& key) { return cases().inputs.at(c.arg(key)); }

/// A golden input on the test's device.
template <class T>
Tensor<T> placed(const Golden& g) {
    return placement::place(golden::host_tensor<T>(g));
}

// One instantiation per op and element type: the op's name chooses the function.
template <class T>
void run_unary(const std::string& op, const Tensor<T>& x, const Golden& expected) {
    constexpr bool cplx64 = std::is_same_v<T, c64>;
    if (op == "neg") check_close(expected, Tensor<T>(-x));
    else if (op == "exp") check_close(expected, Tensor<T>(exp(x)));
    else if (op == "log") check_close(expected, Tensor<T>(log(x)));
    else if (op == "sqrt") check_close(expected, Tensor<T>(x.sqrt()));
    else if (op == "sin") check_close(expected, Tensor<T>(sin(x)));
    else if (op == "cos") check_close(expected, Tensor<T>(cos(x)));
    else if (op == "tanh") check_close(expected, Tensor<T>(tanh(x)));
    else if (op == "reciprocal") check_close(expected, Tensor<T>(reciprocal(x)));
    else if (op == "abs") check_close(expected, Tensor<real_t<T>>(abs(x)));
    else if (op == "angle") check_close(expected, Tensor<real_t<T>>(x.angle()));
    else if (op == "sgn") check_close(expected, Tensor<T>(sgn(x)));
    else if (op == "conj") check_close(expected, Tensor<T>(x.conj()));
    else if constexpr (cplx64) {
        if (op == "conj_physical") check_close(expected, Tensor<T>(conj_physical(x)));
        else if (op == "rsqrt") check_close(expected, Tensor<T>(rsqrt(x)));
        else if (op == "log10") check_close(expected, Tensor<T>(log10(x)));
        else if (op == "tan") check_close(expected, Tensor<T>(tan(x)));
        else if (op == "sinh") check_close(expected, Tensor<T>(sinh(x)));
        else if (op == "cosh") check_close(expected, Tensor<T>(cosh(x)));
        else if (op == "asin") check_close(expected, Tensor<T>(asin(x)));
        else if (op == "acos") check_close(expected, Tensor<T>(acos(x)));
        else if (op == "atan") check_close(expected, Tensor<T>(atan(x)));
        else if (op == "asinh") check_close(expected, Tensor<T>(asinh(x)));
        else if (op == "acosh") check_close(expected, Tensor<T>(acosh(x)));
        else if (op == "atanh") check_close(expected, Tensor<T>(atanh(x)));
        else if (op == "sigmoid") check_close(expected, Tensor<T>(sigmoid(x)));
        else FAIL("unknown op " << op);
    } else {
        FAIL("op " << op << " is only generated for complex64");
    }
}

template <class A, class B>
void run_binary(const std::string& op, const Tensor<A>& a, const Tensor<B>& b, const Golden& expected) {
    using C = promote_t<A, B>;
    if (op == "add") check_close(expected, Tensor<C>(a + b));
    else if (op == "sub") check_close(expected, Tensor<C>(a - b));
    else if (op == "mul") check_close(expected, Tensor<C>(a * b));
    else if (op == "div") check_close(expected, Tensor<C>(a / b));
    else if (op == "pow") check_close(expected, Tensor<C>(pow(a, b)));
    else if (op == "eq") check_close(expected, Tensor<bool>(a == b));
    else if (op == "ne") check_close(expected, Tensor<bool>(a != b));
    else FAIL("unknown op " << op);
}

template <bool WithPow, class A, class S>
void run_scalar(const std::string& op, const Tensor<A>& a, S s, const Golden& expected) {
    if (op == "add") check_close(expected, (a + s).eval());
    else if (op == "sub") check_close(expected, (a - s).eval());
    else if (op == "mul") check_close(expected, (a * s).eval());
    else if (op == "div") check_close(expected, (a / s).eval());
    else if constexpr (WithPow) {
        if (op == "pow") check_close(expected, pow(a, s).eval());
        else FAIL("unknown op " << op);
    } else {
        FAIL("op " << op << " is only generated with a complex64 tensor");
    }
}

/// A Python number's repr: 2.5, 1j, (0.5-2j).
template <class F>
void with_python_number(std::string s, F&& f) {
    if (s.find('j') == std::string::npos) return f(std::stod(s));
    if (s.front() == '(') s = s.substr(1, s.size() - 2);
    const size_t split = s.find_first_of("+-", 1);
    const double re = split == std::string::npos ? 0.0 : std::stod(s.substr(0, split));
    const std::string im = split == std::string::npos ? s : s.substr(split);
    f(c64(static_cast<float>(re), std::stof(im.substr(0, im.size() - 1))));
}

template <class T>
std::string name_of() {
    return std::string(dtype_of<T>.name());
}

}  // namespace

TEST_CASE("complex: the element type", "[complex]") {
    static_assert(sizeof(c64) == 8 && alignof(c64) == 8 && sizeof(c128) == 16 && alignof(c128) == 16);
    static_assert(std::is_standard_layout_v<c64> && std::is_trivially_copyable_v<c128>);
    constexpr c64 a(1, 2), b(3, -4);
    static_assert((a * b).real() == 11 && (a * b).imag() == 2 && a + 1.0f == c64(2, 2) && a != b);
    const std::complex<float> s = a;
    CHECK(c64(s) == a);
    CHECK((a / b).real() == Approx(-0.2));
    CHECK((a / b).imag() == Approx(0.4));
    CHECK(abs(b) == 5.0f);
    CHECK(kComplex64.operator DType().itemsize() == 8);
    CHECK(DType(kComplexDouble).itemsize() == 16);
    CHECK(DType(kComplexFloat) == kComplex64);
    CHECK(DType(kComplex128).name() == "complex128");
    CHECK(DType(kComplex64).is_complex());
    CHECK_FALSE(DType(kComplex64).is_floating_point());
    CHECK_FALSE(DType(kFloat64).is_complex());
    // A 1 x 2 buffer of std::complex reads as interleaved (re, im).
    const std::complex<double> pair[2] = {{1, 2}, {3, 4}};
    const c128* as_tenet = reinterpret_cast<const c128*>(pair);
    CHECK(as_tenet[1] == c128(3, 4));
}

TEST_CASE("complex: pointwise math as PyTorch", "[complex]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op != "unary") continue;
        INFO(c.line.substr(0, 120));
        const Golden& x = input_of(c, "x");
        const Golden expected = golden::parse_part(c.parts.at(0));
        if (x.dtype == "complex64") run_unary(c.arg("op"), placed<c64>(x), expected);
        else if (x.dtype == "complex128") run_unary(c.arg("op"), placed<c128>(x), expected);
        else if (c.arg("op") == "angle") check_close(expected, Tensor<float>(placed<float>(x).angle()));
        else check_close(expected, Tensor<float>(placed<float>(x).sgn()));
        ++n;
    }
    CHECK(n >= 60);
}

TEST_CASE("complex: arithmetic, comparisons and promotion with real tensors and numbers", "[complex]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || (c.op != "binary" && c.op != "scalar")) continue;
        INFO(c.line.substr(0, 120));
        const Golden expected = golden::parse_part(c.parts.at(0));
        const Golden& a = input_of(c, "a");
        if (c.op == "binary") {
            const Golden& b = input_of(c, "b");
            // The operand pairs of gen_complex.py: complex with complex, float32, float64, int64.
            if (a.dtype == "complex64" && b.dtype == "complex64") run_binary(c.arg("op"), placed<c64>(a), placed<c64>(b), expected);
            else if (a.dtype == "complex128") run_binary(c.arg("op"), placed<c128>(a), placed<c128>(b), expected);
            else if (b.dtype == "float32") run_binary(c.arg("op"), placed<c64>(a), placed<float>(b), expected);
            else if (a.dtype == "float64") run_binary(c.arg("op"), placed<double>(a), placed<c64>(b), expected);
            else run_binary(c.arg("op"), placed<int64_t>(a), placed<c64>(b), expected);
        } else {
            // Only the generated pairs are instantiated: a real number with complex64; a complex
            // number with complex64, float32, float64 and int64 (pow with complex64 only).
            with_python_number(c.arg("s"), [&](auto s) {
                golden::with_dtype_or_complex(a.dtype, [&]<class A>() {
                    if constexpr (std::is_same_v<A, c64>)
                        run_scalar<true>(c.arg("op"), placed<A>(a), s, expected);
                    else if constexpr (!std::is_same_v<decltype(s), double> && !std::is_same_v<A, c128>)
                        run_scalar<false>(c.arg("op"), placed<A>(a), s, expected);
                });
            });
        }
        ++n;
    }
    CHECK(n >= 70);
}

TEST_CASE("complex: promotion as torch.promote_types and torch.result_type", "[complex]") {
    // Each C++ type with each complex type, named as PyTorch names them.
    std::map<std::string, std::string> got;
    auto with = [&]<class C>() {
        auto pair = [&]<class R>() { got[name_of<R>() + " " + name_of<C>()] = name_of<promote_t<R, C>>(); };
        pair.template operator()<bool>();
        pair.template operator()<uint8_t>();
        pair.template operator()<int8_t>();
        pair.template operator()<int16_t>();
        pair.template operator()<int32_t>();
        pair.template operator()<int64_t>();
        pair.template operator()<Half>();
        pair.template operator()<BFloat16>();
        pair.template operator()<float>();
        pair.template operator()<double>();
        pair.template operator()<c64>();
        pair.template operator()<c128>();
    };
    with.template operator()<c64>();
    with.template operator()<c128>();
    // A number with a tensor (C++ numbers are weak, as Python's) and a static 0-d tensor.
    got["float32 number=complex"] = name_of<promote_scalar_t<float, c64>>();
    got["float64 number=complex"] = name_of<promote_scalar_t<double, c64>>();
    got["int64 number=complex"] = name_of<promote_scalar_t<int64_t, c64>>();
    got["bool number=complex"] = name_of<promote_scalar_t<bool, c64>>();
    got["float32 zero_dim=complex64"] = name_of<promote_zero_dim_t<float, c64>>();
    got["float64 zero_dim=complex64"] = name_of<promote_zero_dim_t<double, c64>>();
    got["int64 zero_dim=complex64"] = name_of<promote_zero_dim_t<int64_t, c64>>();
    got["complex64 zero_dim=float64"] = name_of<promote_zero_dim_t<c64, double>>();
    got["complex64 zero_dim=int64"] = name_of<promote_zero_dim_t<c64, int64_t>>();
    got["complex64 number=float"] = name_of<promote_scalar_t<c64, double>>();
    got["complex64 number=int"] = name_of<promote_scalar_t<c64, int>>();
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "promote" && c.kind != "result_type") continue;
        std::string key = c.op;
        for (const auto& [k, v] : c.args) key += " " + (k == v ? k : k + "=" + v);  // `complex64` or `number=complex`
        INFO(c.line);
        REQUIRE(got.count(key) == 1);
        std::string expected = c.parts.at(0);
        expected.erase(0, expected.find_first_not_of(' '));
        CHECK(got[key] == expected);
        ++n;
    }
    CHECK(n == 35);
}

TEST_CASE("complex: make_complex and polar as torch.complex and torch.polar", "[complex]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op != "make") continue;
        INFO(c.line.substr(0, 120));
        const Golden expected = golden::parse_part(c.parts.at(0));
        golden::with_dtype_or_complex(input_of(c, "a").dtype, [&]<class T>() {
            if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
                const Tensor<T> a = placed<T>(input_of(c, "a")), b = placed<T>(input_of(c, "b"));
                if (c.arg("op") == "complex") check_close(expected, Tensor<complex<T>>(make_complex(a, b)));
                else check_close(expected, Tensor<complex<T>>(polar(a, b)));
            }
        });
        ++n;
    }
    CHECK(n == 4);
}

TEST_CASE("complex: sum, mean, prod, norm and vector_norm as PyTorch", "[complex]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "case" || c.op != "reduce") continue;
        INFO(c.line.substr(0, 120));
        const Golden expected = golden::parse_part(c.parts.at(0));
        golden::with_dtype_or_complex(input_of(c, "x").dtype, [&]<class T>() {
            if constexpr (is_complex_v<T>) {
                const Tensor<T> x = placed<T>(input_of(c, "x"));
                const std::string op = c.arg("op");
                const bool all = c.arg("dim") == "none";
                const int64_t d = all ? 0 : c.dim();
                const bool keep = c.flag("keepdim");
                if (op == "norm" || op == "vector_norm") {  // of the moduli: real results
                    const double p = std::stod(c.arg("ord"));  // "inf" and "-inf" too
                    Tensor<real_t<T>> r;
                    if (op == "norm") r = all ? norm(x, p) : norm(x, p, d, keep);
                    else r = vector_norm(x, p, all ? std::nullopt : std::optional<IntArray>(IntArray{d}), keep);
                    check_close(expected, r);
                } else if (op == "sum") check_close(expected, all ? x.sum() : x.sum(d, keep));
                else if (op == "mean") check_close(expected, all ? x.mean() : x.mean(d, keep));
                else check_close(expected, all ? x.prod() : x.prod(d, keep));
            }
        });
        ++n;
    }
    CHECK(n == 42);
    // Of an expression, fused, as of its value.
    const Tensor<c64> a = placed<c64>(cases().inputs.at("a"));
    CHECK(((a * c64(0, 1)).sum().item() - Tensor<c64>(a * c64(0, 1)).sum().item()) == c64(0, 0));
    TENET_REQUIRE_THROWS(a.amax(), dtype_error, Catch::Contains("amax") && Catch::Contains("complex64"));
}

TEST_CASE("complex: real, imag, view_as_real and view_as_complex are views, as PyTorch's", "[complex]") {
    Tensor<c64> z = golden::host_tensor<c64>(cases().inputs.at("a"));  // 2 x 3, contiguous
    const Tensor<float> re = z.real(), im = imag(z);
    CHECK(re.strides() == IntArray{6, 2});
    CHECK(re.storage_offset() == 0);
    CHECK(im.storage_offset() == 1);
    CHECK(re.is_alias_of(z));
    CHECK(re(1, 2) == z(1, 2).real());
    CHECK(im(1, 2) == z(1, 2).imag());
    const Tensor<c64> col = z.select(1, 1);
    CHECK(real(col).strides() == IntArray{6});
    CHECK(imag(col).storage_offset() == 3);
    CHECK(z.t().real().strides() == IntArray{2, 6});
    const Tensor<float> pairs = view_as_real(z);
    CHECK(pairs.sizes() == IntArray{2, 3, 2});
    CHECK(pairs.strides() == IntArray{6, 2, 1});
    CHECK(view_as_real(col).storage_offset() == 2);
    CHECK(view_as_real(Tensor<c64>(golden::host_tensor<c64>(cases().inputs.at("p_scalar")))).sizes() == IntArray{2});
    // Writes through the views reach z.
    Tensor<float> r = z.real();
    r.fill_(7.0f);
    imag(z).index({0}) = -1.0f;
    CHECK(z(0, 0) == c64(7, -1));
    CHECK(z(1, 1).real() == 7.0f);
    const Tensor<c64> back = view_as_complex(pairs);
    CHECK(back.is_alias_of(z));
    CHECK(back.sizes() == z.sizes());
    CHECK(back.strides() == z.strides());
    CHECK(back(1, 2) == z(1, 2));
    // real of a real tensor is itself; conj of a real tensor too.
    const Tensor<float> f = ones({3});
    CHECK(real(f).is_same(f));
    CHECK(conj(f).is_same(f));
    // tenet's conj is lazy, never a conj view (expr/complex.hpp).
    CHECK_FALSE(z.is_conj());
    CHECK(z.resolve_conj().is_same(z));
    CHECK(is_complex(z));
    CHECK_FALSE(f.is_complex());
}

TEST_CASE("complex: view_as_complex refuses as PyTorch does", "[complex]") {
    const Tensor<float> base = arange(9).to<float>();
    for (const Case& c : cases().cases) {
        if (c.kind != "throws" || c.op != "view_as_complex") continue;
        INFO(c.line);
        std::string message = c.parts.at(0);
        message.erase(0, message.find_first_not_of(' '));
        const std::string kind = c.arg("kind");
        Tensor<float> t;
        if (kind == "last_size") t = ones({3, 3});
        else if (kind == "last_stride") t = ones({2, 2}).t();
        else if (kind == "offset") t = base.slice(0, 1, 7).view({3, 2});
        else if (kind == "stride") t = base.slice(0, 0, 8).view({4, 2}).slice(0, 0, 4, 2).reshape({2, 2}).t().t();
        else t = ones({});
        if (kind == "stride") {  // sizes (3, 2), strides (3, 1), as PyTorch's as_strided case
            t = Tensor<float>(detail::make_view(base.impl(), IntArray{3, 2}, IntArray{3, 1}, 0));
        }
        TENET_REQUIRE_THROWS(view_as_complex(t), shape_error,
                             Catch::Contains("view_as_complex") && Catch::Contains(message));
    }
}

TEST_CASE("complex: printing is byte-identical to PyTorch's repr", "[complex]") {
    int n = 0;
    for (const Case& c : cases().cases) {
        if (c.kind != "print") continue;
        INFO(c.line.substr(0, 120));
        std::string expected = c.parts.at(0);
        expected.erase(0, expected.find_first_not_of(' '));
        for (size_t p; (p = expected.find("\\n")) != std::string::npos;) expected.replace(p, 2, "\n");
        const Golden& x = input_of(c, "x");
        std::string got;
        if (x.dtype == "complex64") got = to_string(golden::host_tensor<c64>(x));
        else got = to_string(golden::host_tensor<c128>(x));
        CHECK(got == expected);
        ++n;
    }
    CHECK(n == 14);
}

TEST_CASE("complex: creation with complex dtypes", "[complex]") {
    const Tensor<c64> z = zeros({2, 2}, kComplex64);
    CHECK(z.dtype() == kComplex64);
    CHECK(z(1, 1) == c64(0, 0));
    CHECK(ones({2}, kComplexDouble)(0) == c128(1, 0));
    CHECK(full({3}, c64(1, -2))(2) == c64(1, -2));
    CHECK(zeros_like(ones({2}, kComplex128)).dtype() == kComplex128);
    CHECK(empty<c64>({4}).numel() == 4);
    // A literal's type is inferred as PyTorch infers a Python number's: complex -> complex64.
    CHECK(tensor({c128(1, 2), c128(3, 4)}).dtype() == kComplex64);
    CHECK(tensor({c128(1, 2), c128(3, 4)}, kComplex128).dtype() == kComplex128);
    CHECK(tensor({c64(1, 2), c64(3, 4)}).to<c128>()(1) == c128(3, 4));
    CHECK(ones({2}).to<c64>()(0) == c64(1, 0));
    CHECK(tensor({c64(1, 2)}).to<float>()(0) == 1.0f);  // as PyTorch's cast: the real part
}

TEST_CASE("complex: autograd on complex is refused with a clear error", "[complex]") {
    Tensor<c64> z = zeros({2}, kComplex64);
    TENET_REQUIRE_THROWS(z.requires_grad_(), dtype_error, Catch::Contains("complex") && Catch::Contains("requires_grad_"));
#if TENET_AUTOGRAD
    Tensor<float> x = ones({2});
    x.requires_grad_();
    TENET_REQUIRE_THROWS(Tensor<c64>(x * c64(0, 1)), dtype_error, Catch::Contains("mul") && Catch::Contains("complex"));
    TENET_REQUIRE_THROWS(Tensor<float>(abs(x * c64(0, 1))), dtype_error, Catch::Contains("abs"));
    TENET_REQUIRE_THROWS((x * c64(0, 1)).sum(), dtype_error, Catch::Contains("sum"));
    TENET_REQUIRE_THROWS(view_as_complex(Tensor<float>(ones({2, 2}).requires_grad_())), dtype_error,
                         Catch::Contains("view_as_complex"));
    NoGradGuard no_grad;
    CHECK(Tensor<c64>(x * c64(0, 1))(1) == c64(0, 1));
#endif
}

}}  // namespace TENET_TEST_FILE
