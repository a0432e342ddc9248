#pragma once
// The sparse tests' reading of tests/sparse/sparse_cases.txt (tests/golden/gen_sparse.py), shared
// by test_sparse.cpp and test_sparse_grad.cpp.
#include <sstream>
#include <string>

#include <tenet/sparse.hpp>

#include "../golden_data.hpp"

namespace sparse_cases {

using namespace tenet;
using golden::Case;
using golden::GoldenFile;

inline const GoldenFile& cases() { return golden::cached(__FILE__, "sparse_cases.txt"); }

template <class T>
Tensor<T> in(const Case& c, const std::string& key) {
    return golden::make<T>(cases().inputs.at(c.arg(key))).cpu();
}

inline IntArray list(const std::string& text) {
    IntArray d;
    std::istringstream s(text);
    for (std::string w; std::getline(s, w, ',');) d.push_back(std::stoll(w));
    return d;
}

inline SparseTensor<float> operand(const Case& c, const std::string& suffix = "") {
    auto s = sparse_coo_tensor(in<int64_t>(c, "ind" + suffix), in<float>(c, "val" + suffix), list(c.arg("size" + suffix)));
    return c.flag("co" + suffix) ? s.coalesce() : s;
}

inline void check_sparse(const Case& c, const SparseTensor<float>& s) {
    golden::compare(golden::parse_part(c.parts.at(0)), s._indices(), 0.0);
    golden::compare(golden::parse_part(c.parts.at(1)), s._values(), 0.0);
    CHECK(static_cast<double>(s.is_coalesced()) == golden::parse_part(c.parts.at(2)).values.at(0));
}

}  // namespace sparse_cases
