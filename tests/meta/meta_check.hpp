#pragma once
// The checks of tests/meta/: each case of meta_cases.txt (written by tests/golden/gen_meta.py from
// PyTorch 1.13's meta tensors) run through a table of the same cases written with tenet, by name.
#include "../golden_data.hpp"

#include <functional>
#include <map>
#include <string>

namespace meta_check {

using namespace tenet;

/// A case: builds its result (a meta tensor, or a host one) from nothing.
using Builder = std::function<TensorBase()>;

/// An uninitialised meta tensor, a leaf that requires grad if asked.
template <class T = float>
Tensor<T> meta(const IntArray& sizes, bool requires_grad = false) {
    Tensor<T> t = empty<T>(sizes, kMeta);
    if (requires_grad) t.requires_grad_();
    return t;
}

inline IntArray int_list(const std::string& text) {
    IntArray out;
    std::istringstream in(text);
    for (std::string w; std::getline(in, w, ',');) out.push_back(std::stoll(w));
    return out;
}

/// The text PyTorch's repr gives, written by tenet's printing.
inline std::string repr(const TensorBase& t) {
    return visit_dtype_with_complex(t.dtype(), [&]<class U>(dtype_t<U>) { return to_string(t.as<U>()); });
}

/// Runs every case of the file whose name `selected` accepts against `cases` (each such case must
/// be in the table, and every entry of the table in the file).
template <class Select>
void run_cases(const golden::GoldenFile& file, const std::map<std::string, Builder>& cases, Select selected) {
    size_t ran = 0;
    for (const golden::Case& c : file.cases) {
        if (!selected(c.op)) continue;
        INFO(c.line);
        const auto it = cases.find(c.op);
        CHECK(it != cases.end());  // a case PyTorch answered that the table lacks
        if (it == cases.end()) continue;
        ++ran;
        if (c.kind == "error") {
            const std::string& kind = c.arg("kind");
            try {
                it->second();
                FAIL("expected an exception (" << kind << ")");
            } catch (const device_error& e) {
                const std::string what = e.what();
                INFO(what);
                if (kind == "device") CHECK(what.find("expected all tensors to be on the same device") != std::string::npos);
                else if (kind == "data") CHECK(what.find("Cannot copy out of meta tensor; no data!") != std::string::npos);
                else FAIL("a device_error, where PyTorch raises for the shapes or dtypes: " << what);
            } catch (const error& e) {
                INFO(e.what());
                CHECK(kind == "other");
            }
            continue;
        }
        const TensorBase r = it->second();
        if (c.kind == "print") {
            std::string want = c.parts.at(0).substr(1);  // after the space that follows '|'
            for (size_t p; (p = want.find("\\n")) != std::string::npos;) want.replace(p, 2, "\n");
            CHECK(repr(r) == want);
            continue;
        }
        REQUIRE(c.kind == "result");
        CHECK(r.is_meta());
        CHECK(r.dtype().name() == c.arg("dtype"));
        CHECK(r.sizes() == int_list(c.arg("sizes")));
        CHECK(r.strides() == int_list(c.arg("strides")));
        CHECK(r.storage_offset() == std::stoll(c.arg("offset")));
        // No data: the storage has no buffer, whatever bytes it reports.
        CHECK(r.impl().storage->data_or_null() == nullptr);
    }
    size_t listed = 0;
    for (const auto& [name, builder] : cases) listed += selected(name);
    CHECK(ran == listed);  // no case of the table is missing from the file
}

inline const golden::GoldenFile& cases_file() {
    static const golden::GoldenFile file = golden::read_golden(golden::golden_path(__FILE__, "meta_cases.txt"));
    return file;
}

}  // namespace meta_check
