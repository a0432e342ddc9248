#pragma once
// The Python values that PyTorch's .pt files hold (IValue, LibTorch's name), a restricted
// unpickler that reads them, and a pickler that writes them (io/pt.hpp puts both in the zip).
//
// The unpickler is a bounded interpreter of the pickle opcodes that torch.save emits (protocol
// 2, binary opcodes): it builds only None, bool, int, float, str, tensors, lists, tuples and dicts
// (OrderedDict included). The only callables it knows are an allow-list (tensor and parameter
// rebuilding, OrderedDict, the torch.*Storage classes); any other global, a REDUCE of anything
// else, or an opcode it does not implement is an io_error naming the file, the opcode (or the
// global) and its byte offset. Every length is checked against the bytes that remain, the stack,
// the memo and the nesting depth are bounded, and nothing is allocated from an unchecked size.
// Containers cannot form cycles: a list or dict that has been put into another value is frozen,
// and later APPEND/SETITEM into it are refused (Python's pickler never emits those).

#include "tenet/config.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tenet/core/dtype.hpp"
#include "tenet/core/errors.hpp"
#include "tenet/core/tensor.hpp"

namespace tenet::inline TENET_ABI {

class IValue;

/// A dict of IValues with insertion-ordered keys (strings or ints), as Python's dict and
/// OrderedDict (LibTorch's c10::impl::GenericDict). Setting an existing key replaces its value in
/// place, as Python does.
class GenericDict {
public:
    /// The entries in insertion order.
    const std::vector<std::pair<IValue, IValue>>& items() const;
    size_t size() const;
    bool empty() const;
    /// The value under `key` (a string or int IValue), or nullptr.
    const IValue* find(const IValue& key) const;
    /// Sets `key` (a string or int: value_error otherwise) to `value`.
    void insert_or_assign(IValue key, IValue value);
    /// Whether the dict was (or will be) pickled as collections.OrderedDict rather than dict.
    bool ordered = false;

private:
    friend class IValue;
    friend class detail_pickle_access;
    std::vector<std::pair<IValue, IValue>> items_;
    std::unordered_map<std::string, size_t> by_string_;
    std::unordered_map<int64_t, size_t> by_int_;
};

/// A Python value as read from, or written to, a pickle: None, bool, int (int64), float
/// (double), str, a tensor, a list, a tuple or a dict. Copies share lists, tuples and dicts
/// (which are immutable once built). LibTorch's c10::IValue, with the subset of its methods
/// that these kinds need; each to*() throws value_error when the kind differs.
class IValue {
public:
    enum class Tag : uint8_t { None, Bool, Int, Double, String, Tensor, List, Tuple, GenericDict };
    /// Deepest nesting of lists, tuples and dicts accepted (in pickles and when saving).
    static constexpr int kMaxDepth = 100;

    IValue() = default;  ///< None
    IValue(std::nullptr_t) {}  // NOLINT
    IValue(bool v) : tag_(Tag::Bool), int_(v) {}  // NOLINT
    IValue(int64_t v) : tag_(Tag::Int), int_(v) {}  // NOLINT
    IValue(int v) : tag_(Tag::Int), int_(v) {}  // NOLINT
    IValue(double v) : tag_(Tag::Double), double_(v) {}  // NOLINT
    // Strings are shared, as Python's are: the unpickler's DUP, PUT and GET copy values, and a
    // copied 64 MiB string must not be 64 MiB more.
    IValue(std::string v) : tag_(Tag::String), string_(std::make_shared<const std::string>(std::move(v))) {}  // NOLINT
    IValue(const char* v) : tag_(Tag::String), string_(std::make_shared<const std::string>(v)) {}  // NOLINT
    IValue(TensorBase v) : tag_(Tag::Tensor), tensor_(std::move(v)) {  // NOLINT
        if (!tensor_.defined()) detail::fail<value_error>("IValue: an undefined tensor");
    }
    IValue(std::vector<IValue> list) : IValue(Tag::List, std::move(list)) {}  // NOLINT
    IValue(GenericDict dict) : tag_(Tag::GenericDict) {  // NOLINT
        int depth = 1;
        for (auto& [k, v] : dict.items_) depth = std::max(depth, v.depth() + 1);
        check_depth(depth);
        dict_ = std::make_shared<DictBox>(DictBox{std::move(dict), depth, false});
    }
    /// A tuple (Python's tuple; LibTorch's ivalue::Tuple).
    static IValue tuple(std::vector<IValue> items) { return IValue(Tag::Tuple, std::move(items)); }

    Tag tag() const { return tag_; }
    bool isNone() const { return tag_ == Tag::None; }
    bool isBool() const { return tag_ == Tag::Bool; }
    bool isInt() const { return tag_ == Tag::Int; }
    bool isDouble() const { return tag_ == Tag::Double; }
    bool isString() const { return tag_ == Tag::String; }
    bool isTensor() const { return tag_ == Tag::Tensor; }
    bool isList() const { return tag_ == Tag::List; }
    bool isTuple() const { return tag_ == Tag::Tuple; }
    bool isGenericDict() const { return tag_ == Tag::GenericDict; }

    bool toBool() const { return expect(Tag::Bool), int_ != 0; }
    int64_t toInt() const { return expect(Tag::Int), int_; }
    double toDouble() const { return expect(Tag::Double), double_; }
    const std::string& toStringRef() const { return expect(Tag::String), *string_; }
    const TensorBase& toTensor() const { return expect(Tag::Tensor), tensor_; }
    const std::vector<IValue>& toList() const { return expect(Tag::List), seq_->items; }
    /// A tuple's elements.
    const std::vector<IValue>& toTupleRef() const { return expect(Tag::Tuple), seq_->items; }
    const GenericDict& toGenericDict() const { return expect(Tag::GenericDict), dict_->dict; }

    /// The kind's name as Python spells the type ("NoneType", "int", "Tensor", "dict", ...).
    const char* tagKind() const {
        static constexpr const char* names[] = {"NoneType", "bool", "int",   "float", "str",
                                                "Tensor",   "list", "tuple", "dict"};
        return names[static_cast<int>(tag_)];
    }
    /// Nesting depth: 0 for a scalar or tensor, 1 for a flat list, tuple or dict, ...
    int depth() const {
        if (seq_) return seq_->depth;
        if (dict_) return dict_->depth;
        return 0;
    }
    /// Whether both refer to the same list, tuple or dict (Python's `is` for containers).
    bool is_same_container(const IValue& o) const {
        return (seq_ && seq_ == o.seq_) || (dict_ && dict_ == o.dict_);
    }

private:
    friend class detail_pickle_access;
    struct SeqBox {
        std::vector<IValue> items;
        int depth = 1;
        bool frozen = false;  // put into another value: no more appends (the unpickler's rule)
    };
    struct DictBox {
        GenericDict dict;
        int depth = 1;
        bool frozen = false;
    };
    IValue(Tag tag, std::vector<IValue> items) : tag_(tag) {
        int depth = 1;
        for (auto& v : items) depth = std::max(depth, v.depth() + 1);
        check_depth(depth);
        seq_ = std::make_shared<SeqBox>(SeqBox{std::move(items), depth, false});
    }
    static void check_depth(int depth) {
        if (depth > kMaxDepth)
            detail::fail<value_error>("IValue: lists, tuples and dicts nested more than ", kMaxDepth,
                                      " deep");
    }
    void expect(Tag t) const {
        if (tag_ != t) {
            static constexpr const char* names[] = {"None",   "Bool", "Int",   "Double",     "String",
                                                    "Tensor", "List", "Tuple", "GenericDict"};
            detail::fail<value_error>("IValue: expected ", names[static_cast<int>(t)], " but got ",
                                      names[static_cast<int>(tag_)]);
        }
    }

    Tag tag_ = Tag::None;
    int64_t int_ = 0;
    double double_ = 0;
    std::shared_ptr<const std::string> string_;
    TensorBase tensor_;
    std::shared_ptr<SeqBox> seq_;
    std::shared_ptr<DictBox> dict_;
};

// Defined here, where IValue is complete.
inline const std::vector<std::pair<IValue, IValue>>& GenericDict::items() const { return items_; }
inline size_t GenericDict::size() const { return items_.size(); }
inline bool GenericDict::empty() const { return items_.empty(); }

inline const IValue* GenericDict::find(const IValue& key) const {
    if (key.isString()) {
        auto it = by_string_.find(key.toStringRef());
        return it == by_string_.end() ? nullptr : &items_[it->second].second;
    }
    if (key.isInt()) {
        auto it = by_int_.find(key.toInt());
        return it == by_int_.end() ? nullptr : &items_[it->second].second;
    }
    return nullptr;
}

inline void GenericDict::insert_or_assign(IValue key, IValue value) {
    size_t* slot = nullptr;
    bool fresh = false;
    if (key.isString()) {
        auto [it, inserted] = by_string_.try_emplace(key.toStringRef(), items_.size());
        slot = &it->second, fresh = inserted;
    } else if (key.isInt()) {
        auto [it, inserted] = by_int_.try_emplace(key.toInt(), items_.size());
        slot = &it->second, fresh = inserted;
    } else {
        detail::fail<value_error>("GenericDict: keys must be str or int, got ", key.tagKind());
    }
    if (fresh) items_.emplace_back(std::move(key), std::move(value));
    else items_[*slot].second = std::move(value);
}

/// The unpickler's access to IValue's containers while it builds them (internal).
class detail_pickle_access {
public:
    static IValue empty(IValue::Tag tag) {
        if (tag == IValue::Tag::GenericDict) return IValue(GenericDict{});
        return IValue(tag, {});
    }
    static bool frozen(const IValue& v) {
        return (v.seq_ && v.seq_->frozen) || (v.dict_ && v.dict_->frozen);
    }
    static void freeze(const IValue& v) {
        if (v.seq_) v.seq_->frozen = true;
        if (v.dict_) v.dict_->frozen = true;
    }
    // Callers have checked: target is an unfrozen list/dict, item is not target, depth fits.
    static void append(const IValue& list, IValue item) {
        list.seq_->depth = std::max(list.seq_->depth, item.depth() + 1);
        list.seq_->items.push_back(std::move(item));
    }
    static void set_item(const IValue& dict, IValue key, IValue value) {
        dict.dict_->depth = std::max(dict.dict_->depth, value.depth() + 1);
        dict.dict_->dict.insert_or_assign(std::move(key), std::move(value));
    }
    static void set_ordered(const IValue& dict) { dict.dict_->dict.ordered = true; }
};

namespace detail::pickle {

/// A storage that a pickle refers to through a persistent id ('storage', torch.XStorage, key,
/// location, numel). The loader gives the bytes: it checks the record's real size first.
struct StorageRecord {
    StoragePtr storage;
    DType dtype = ScalarType::Float32;
    int64_t numel = 0;
};
using StorageLoader =
    std::function<StoragePtr(const std::string& key, DType dtype, int64_t numel, const std::string& location)>;

/// The torch.XStorage class name of a dtype, and back.
inline const char* storage_class(DType dtype) {
    switch (dtype.scalar_type()) {
        case ScalarType::Bool: return "BoolStorage";
        case ScalarType::UInt8: return "ByteStorage";
        case ScalarType::Int8: return "CharStorage";
        case ScalarType::Int16: return "ShortStorage";
        case ScalarType::Int32: return "IntStorage";
        case ScalarType::Int64: return "LongStorage";
        case ScalarType::Float16: return "HalfStorage";
        case ScalarType::BFloat16: return "BFloat16Storage";
        case ScalarType::Float32: return "FloatStorage";
        case ScalarType::Float64: return "DoubleStorage";
        case ScalarType::ComplexFloat: return "ComplexFloatStorage";
        case ScalarType::ComplexDouble: return "ComplexDoubleStorage";
    }
    return "FloatStorage";
}
inline bool storage_dtype(std::string_view name, DType& out) {
    static constexpr ScalarType all[] = {ScalarType::Bool,    ScalarType::UInt8,   ScalarType::Int8,
                                         ScalarType::Int16,   ScalarType::Int32,   ScalarType::Int64,
                                         ScalarType::Float16, ScalarType::BFloat16, ScalarType::Float32,
                                         ScalarType::Float64, ScalarType::ComplexFloat, ScalarType::ComplexDouble};
    for (ScalarType s : all)
        if (name == storage_class(DType(s))) {
            out = DType(s);
            return true;
        }
    return false;
}

/// Names of the opcodes, for messages.
inline const char* opcode_name(uint8_t op) {
    switch (op) {
        case '(': return "MARK"; case '.': return "STOP"; case '0': return "POP";
        case '1': return "POP_MARK"; case '2': return "DUP"; case 'F': return "FLOAT";
        case 'I': return "INT"; case 'J': return "BININT"; case 'K': return "BININT1";
        case 'L': return "LONG"; case 'M': return "BININT2"; case 'N': return "NONE";
        case 'P': return "PERSID"; case 'Q': return "BINPERSID"; case 'R': return "REDUCE";
        case 'S': return "STRING"; case 'T': return "BINSTRING"; case 'U': return "SHORT_BINSTRING";
        case 'V': return "UNICODE"; case 'X': return "BINUNICODE"; case 'a': return "APPEND";
        case 'b': return "BUILD"; case 'c': return "GLOBAL"; case 'd': return "DICT";
        case '}': return "EMPTY_DICT"; case 'e': return "APPENDS"; case 'g': return "GET";
        case 'h': return "BINGET"; case 'i': return "INST"; case 'j': return "LONG_BINGET";
        case 'l': return "LIST"; case ']': return "EMPTY_LIST"; case 'o': return "OBJ";
        case 'p': return "PUT"; case 'q': return "BINPUT"; case 'r': return "LONG_BINPUT";
        case 's': return "SETITEM"; case 't': return "TUPLE"; case ')': return "EMPTY_TUPLE";
        case 'u': return "SETITEMS"; case 'G': return "BINFLOAT"; case 0x80: return "PROTO";
        case 0x81: return "NEWOBJ"; case 0x82: return "EXT1"; case 0x83: return "EXT2";
        case 0x84: return "EXT4"; case 0x85: return "TUPLE1"; case 0x86: return "TUPLE2";
        case 0x87: return "TUPLE3"; case 0x88: return "NEWTRUE"; case 0x89: return "NEWFALSE";
        case 0x8a: return "LONG1"; case 0x8b: return "LONG4"; case 'B': return "BINBYTES";
        case 'C': return "SHORT_BINBYTES"; case 0x8c: return "SHORT_BINUNICODE";
        case 0x8d: return "BINUNICODE8"; case 0x8e: return "BINBYTES8"; case 0x8f: return "EMPTY_SET";
        case 0x90: return "ADDITEMS"; case 0x91: return "FROZENSET"; case 0x92: return "NEWOBJ_EX";
        case 0x93: return "STACK_GLOBAL"; case 0x94: return "MEMOIZE"; case 0x95: return "FRAME";
        case 0x96: return "BYTEARRAY8"; case 0x97: return "NEXT_BUFFER"; case 0x98: return "READONLY_BUFFER";
        default: return "unknown";
    }
}

/// Reads one pickle. `name` names it in messages ("file.pt: archive/data.pkl").
class Unpickler {
public:
    // A few hundred bytes an entry at most: together bounded to a few hundred MiB, whatever the
    // (up to 1 GiB) pickle says; a checkpoint's pickle needs thousands.
    static constexpr size_t kMaxStack = size_t(1) << 20;
    static constexpr size_t kMaxMemo = size_t(1) << 20;

    Unpickler(std::string_view bytes, std::string name, StorageLoader loader)
        : p_(reinterpret_cast<const uint8_t*>(bytes.data())),
          end_(p_ + bytes.size()),
          begin_(p_),
          name_(std::move(name)),
          loader_(std::move(loader)) {}

    IValue parse() {
        while (true) {
            if (p_ == end_) error("the pickle ends without STOP");
            op_at_ = size_t(p_ - begin_);
            op_ = *p_++;
            if (step()) break;
        }
        if (stack_.size() != 1 || !marks_.empty())
            error("STOP with ", stack_.size(), " values and ", marks_.size(), " marks on the stack");
        if (p_ != end_) error(size_t(end_ - p_), " bytes after STOP");
        Item& result = stack_.back();
        if (result.k != Item::K::Value) error("the pickle's value is ", kind(result), ", not a Python value");
        return std::move(result.v);
    }

private:
    // A value on the stack: a Python value, or one of the things only the interpreter sees.
    struct Item {
        enum class K : uint8_t { Value, Global, Storage, Tuple } k = K::Value;
        IValue v;
        int global = 0;  // K::Global: one of kGlobal*, or kStorageClass + ScalarType
        DType dtype = ScalarType::Float32;
        std::shared_ptr<const StorageRecord> storage;
        std::shared_ptr<const std::vector<Item>> tuple;  // K::Tuple: holds some non-values
        int depth = 0;
    };
    static constexpr int kRebuildTensorV2 = 1, kRebuildParameter = 2, kOrderedDict = 3, kStorageClass = 4;

    template <class... Parts>
    [[noreturn]] void error(const Parts&... parts) const {
        fail<io_error>(name_, ": ", parts..., " (opcode ", opcode_name(op_), " at byte ", op_at_, ")");
    }
    static const char* kind(const Item& it) {
        switch (it.k) {
            case Item::K::Value: return it.v.tagKind();
            case Item::K::Global: return "a global";
            case Item::K::Storage: return "a storage";
            case Item::K::Tuple: return "a tuple holding storages or globals";
        }
        return "?";
    }

    const uint8_t* take(size_t n) {
        if (size_t(end_ - p_) < n) error("truncated: needs ", n, " bytes, ", size_t(end_ - p_), " left");
        const uint8_t* q = p_;
        p_ += n;
        return q;
    }
    uint64_t le(size_t n) {
        const uint8_t* q = take(n);
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= uint64_t(q[i]) << (8 * i);
        return v;
    }
    std::string_view line(size_t max) {
        const size_t left = size_t(end_ - p_);
        const void* nl = std::memchr(p_, '\n', std::min(left, max + 1));
        if (!nl) error("a line longer than ", max, " bytes or without its newline");
        const auto* q = static_cast<const uint8_t*>(nl);
        std::string_view s(reinterpret_cast<const char*>(p_), size_t(q - p_));
        p_ = q + 1;
        return s;
    }

    void push(Item it) {
        if (stack_.size() >= kMaxStack) error("stack deeper than ", kMaxStack);
        stack_.push_back(std::move(it));
    }
    void push(IValue v) {
        Item it;
        it.v = std::move(v);
        push(std::move(it));
    }
    Item pop() {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) error("pop from an empty stack");
        Item it = std::move(stack_.back());
        stack_.pop_back();
        return it;
    }
    Item& top() {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) error("empty stack");
        return stack_.back();
    }
    // The items since the last MARK (which is removed).
    std::vector<Item> pop_mark() {
        if (marks_.empty()) error("no MARK on the stack");
        const size_t m = marks_.back();
        marks_.pop_back();
        std::vector<Item> items(std::make_move_iterator(stack_.begin() + std::ptrdiff_t(m)),
                                std::make_move_iterator(stack_.end()));
        stack_.resize(m);
        return items;
    }
    // A value that goes into a container: must be a Python value; it is frozen from now on.
    IValue contained(Item&& it, const char* where) {
        if (it.k != Item::K::Value) error(where, " holds ", kind(it), ", which is not supported");
        detail_pickle_access::freeze(it.v);
        return std::move(it.v);
    }
    Item make_tuple(std::vector<Item> items) {
        bool values = true;
        int depth = 1;
        for (auto& it : items) {
            values = values && it.k == Item::K::Value;
            depth = std::max(depth, (it.k == Item::K::Value ? it.v.depth() : it.depth) + 1);
        }
        if (depth > IValue::kMaxDepth) error("values nested more than ", IValue::kMaxDepth, " deep");
        Item t;
        if (values) {
            std::vector<IValue> vs;
            vs.reserve(items.size());
            for (auto& it : items) vs.push_back(contained(std::move(it), "a tuple"));
            t.v = IValue::tuple(std::move(vs));
        } else {
            for (auto& it : items)
                if (it.k == Item::K::Value) detail_pickle_access::freeze(it.v);
            t.k = Item::K::Tuple;
            t.depth = depth;
            t.tuple = std::make_shared<const std::vector<Item>>(std::move(items));
        }
        return t;
    }
    // The list or dict that APPEND/SETITEM add to: unfrozen, and not the item itself.
    const IValue& target(Item& it, IValue::Tag tag) {
        if (it.k != Item::K::Value || it.v.tag() != tag)
            error("adds to ", kind(it), ", expected a ", tag == IValue::Tag::List ? "list" : "dict");
        if (detail_pickle_access::frozen(it.v))
            error("modifies a container that is already inside another value");
        return it.v;
    }
    void append(const IValue& list, Item&& item) {
        if (item.k == Item::K::Value && item.v.is_same_container(list)) error("a list that contains itself");
        if ((item.k == Item::K::Value ? item.v.depth() : 0) + 1 > IValue::kMaxDepth)
            error("values nested more than ", IValue::kMaxDepth, " deep");
        detail_pickle_access::append(list, contained(std::move(item), "a list"));
    }
    void set_item(const IValue& dict, Item&& key, Item&& value) {
        if (value.k == Item::K::Value && value.v.is_same_container(dict)) error("a dict that contains itself");
        if (key.k != Item::K::Value || !(key.v.isString() || key.v.isInt()))
            error("a dict key of type ", kind(key), " (only str and int keys are supported)");
        if ((value.k == Item::K::Value ? value.v.depth() : 0) + 1 > IValue::kMaxDepth)
            error("values nested more than ", IValue::kMaxDepth, " deep");
        IValue v = contained(std::move(value), "a dict");
        detail_pickle_access::set_item(dict, std::move(key.v), std::move(v));
    }

    void memo_put(uint64_t index) {
        if (memo_.size() >= kMaxMemo && !memo_.count(index)) error("more than ", kMaxMemo, " memo entries");
        Item copy = top();
        memo_.insert_or_assign(index, std::move(copy));
    }
    void memo_get(uint64_t index) {
        auto it = memo_.find(index);
        if (it == memo_.end()) error("memo entry ", index, " was never set");
        push(it->second);
    }

    static int64_t to_int64(const uint8_t* q, size_t n, bool& fits) {
        // Little-endian two's complement of n bytes (pickle's LONG1/LONG4).
        fits = true;
        if (n == 0) return 0;
        uint64_t v = 0;
        for (size_t i = 0; i < std::min<size_t>(n, 8); ++i) v |= uint64_t(q[i]) << (8 * i);
        const bool negative = (q[n - 1] & 0x80) != 0;
        if (n < 8 && negative) v |= ~uint64_t(0) << (8 * n);
        for (size_t i = 8; i < n; ++i) fits = fits && q[i] == (negative ? 0xff : 0x00);
        if (n > 8) fits = fits && (((v >> 63) != 0) == negative);
        return static_cast<int64_t>(v);
    }

    const std::string& string_of(const Item& it, const char* what) {
        if (it.k != Item::K::Value || !it.v.isString()) error(what, " is ", kind(it), ", expected a str");
        return it.v.toStringRef();
    }
    int64_t int_of(const Item& it, const char* what) {
        if (it.k != Item::K::Value || !it.v.isInt()) error(what, " is ", kind(it), ", expected an int");
        return it.v.toInt();
    }
    IntArray ints_of(const Item& it, const char* what) {
        if (it.k != Item::K::Value || !it.v.isTuple()) error(what, " is ", kind(it), ", expected a tuple of ints");
        const auto& items = it.v.toTupleRef();
        if (items.size() > 64) error(what, " has ", items.size(), " dimensions");
        IntArray out;
        for (const IValue& v : items) {
            if (!v.isInt()) error(what, " holds a ", v.tagKind(), ", expected ints");
            out.push_back(v.toInt());
        }
        return out;
    }
    static bool empty_hooks(const Item& it) {
        return it.k == Item::K::Value && it.v.isGenericDict() && it.v.toGenericDict().empty();
    }

    // BINPERSID: ('storage', torch.XStorage, key, location, numel) -> the storage (loaded once per key).
    Item persistent_load(Item pid) {
        if (pid.k != Item::K::Tuple || pid.tuple->size() != 5)
            error("a persistent id that is not ('storage', class, key, location, numel)");
        const auto& t = *pid.tuple;
        if (string_of(t[0], "the persistent id's kind") != "storage")
            error("a persistent id of kind '", t[0].v.toStringRef(), "'");
        if (t[1].k != Item::K::Global || t[1].global != kStorageClass)
            error("a persistent id whose class is ", kind(t[1]), ", not a torch.*Storage class");
        const DType dtype = t[1].dtype;
        const std::string& key = string_of(t[2], "the storage key");
        const std::string& location = string_of(t[3], "the storage location");
        const int64_t numel = int_of(t[4], "the storage size");
        if (numel < 0) error("storage '", key, "' has a negative size ", numel);
        Item out;
        out.k = Item::K::Storage;
        auto it = storages_.find(key);
        if (it != storages_.end()) {
            if (it->second->dtype != dtype || it->second->numel != numel)
                error("storage '", key, "' is used as ", storage_class(it->second->dtype), "(", it->second->numel,
                      ") and as ", storage_class(dtype), "(", numel, ")");
            out.storage = it->second;
            return out;
        }
        auto rec = std::make_shared<StorageRecord>();
        rec->dtype = dtype;
        rec->numel = numel;
        rec->storage = loader_(key, dtype, numel, location);
        storages_.emplace(key, rec);
        out.storage = std::move(rec);
        return out;
    }

    // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata])
    IValue rebuild_tensor(const std::vector<Item>& a) {
        if (a.size() != 6 && a.size() != 7) error("_rebuild_tensor_v2 with ", a.size(), " arguments, expected 6 or 7");
        if (a[0].k != Item::K::Storage) error("_rebuild_tensor_v2's storage is ", kind(a[0]));
        const StorageRecord& s = *a[0].storage;
        const int64_t offset = int_of(a[1], "the storage offset");
        IntArray sizes = ints_of(a[2], "the tensor's size");
        IntArray strides = ints_of(a[3], "the tensor's stride");
        if (a[4].k != Item::K::Value || !a[4].v.isBool()) error("requires_grad is ", kind(a[4]), ", expected a bool");
        if (!empty_hooks(a[5])) error("a tensor with backward hooks (not supported)");
        if (a.size() == 7 && !(a[6].k == Item::K::Value && (a[6].v.isNone() || empty_hooks(a[6]))))
            error("a tensor with metadata (not supported)");
        if (sizes.size() != strides.size())
            error("a tensor of size ", sizes, " with stride ", strides, " (ranks differ)");
        // The view must lie inside its storage: offset + sum((size-1)*stride) < numel.
        if (offset < 0) error("a tensor with negative storage offset ", offset);
        int64_t last = offset;
        bool empty = false;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] < 0 || strides[d] < 0) error("a tensor of size ", sizes, " with stride ", strides);
            empty = empty || sizes[d] == 0;
        }
        bool overflow = false;
        int64_t numel = 1;  // must fit int64 too (an expanded view's may not, with stride 0)
        for (int64_t n : sizes) overflow = overflow || __builtin_mul_overflow(numel, n, &numel);
        if (!empty)
            for (size_t d = 0; d < sizes.size(); ++d) {
                int64_t step = 0;
                overflow = overflow || __builtin_mul_overflow(sizes[d] - 1, strides[d], &step) ||
                           __builtin_add_overflow(last, step, &last);
            }
        if (overflow || (empty ? offset > s.numel : last >= s.numel))
            error("a tensor (offset ", offset, ", size ", sizes, ", stride ", strides, ") reaches outside its ",
                  storage_class(s.dtype), " of ", s.numel, " elements");
        auto impl = TensorImplPtr::make();
        impl->storage = s.storage;
        impl->offset = offset;
        impl->dtype = s.dtype;
        impl->set_geometry(std::move(sizes), std::move(strides));
        TensorBase t(std::move(impl));
        if (a[4].v.toBool()) set_requires_grad(t);
        return IValue(std::move(t));
    }
    // torch._utils._rebuild_parameter(data, requires_grad, hooks): the tensor, as a leaf.
    IValue rebuild_parameter(const std::vector<Item>& a) {
        if (a.size() != 3) error("_rebuild_parameter with ", a.size(), " arguments, expected 3");
        if (a[0].k != Item::K::Value || !a[0].v.isTensor()) error("_rebuild_parameter's data is ", kind(a[0]));
        if (a[1].k != Item::K::Value || !a[1].v.isBool()) error("requires_grad is ", kind(a[1]), ", expected a bool");
        if (!empty_hooks(a[2])) error("a parameter with backward hooks (not supported)");
        TensorBase t(detail::make_view(a[0].v.toTensor().impl(), a[0].v.toTensor().sizes(),
                                       a[0].v.toTensor().strides(), a[0].v.toTensor().storage_offset()));
        if (a[1].v.toBool()) set_requires_grad(t);
        return IValue(std::move(t));
    }
    void set_requires_grad(const TensorBase& t) {
#if TENET_AUTOGRAD
        if (t.dtype().is_complex())
            error("a ", t.dtype(), " tensor that requires grad (tenet has no autograd through complex numbers; "
                  "save it detached)");
        if (!t.is_floating_point()) error("an integer tensor that requires grad");
        visit_dtype(t.dtype(), [&]<class U>(dtype_t<U>) { t.as<U>().requires_grad_(true); });
#else
        (void)t;  // a build without autograd has no requires_grad: documented in pt.hpp
#endif
    }

    // Runs the opcode op_; true at STOP.
    bool step() {
        using Tag = IValue::Tag;
        switch (op_) {
            case 0x80: {  // PROTO
                const uint64_t v = le(1);
                if (v > 2) error("pickle protocol ", v, " (torch.save writes 2; only 0-2 are supported)");
                return false;
            }
            case '.': return true;
            case '(':
                if (marks_.size() >= kMaxStack) error("too many marks");
                marks_.push_back(stack_.size());
                return false;
            case '0': pop(); return false;
            case '1': pop_mark(); return false;
            case '2': {
                Item copy = top();
                push(std::move(copy));
                return false;
            }
            case 'N': push(IValue()); return false;
            case 0x88: push(IValue(true)); return false;
            case 0x89: push(IValue(false)); return false;
            case 'K': push(IValue(int64_t(le(1)))); return false;
            case 'M': push(IValue(int64_t(le(2)))); return false;
            case 'J': push(IValue(int64_t(int32_t(uint32_t(le(4)))))); return false;
            case 0x8a:
            case 0x8b: {  // LONG1, LONG4
                const uint64_t n = le(op_ == 0x8a ? 1 : 4);
                const uint8_t* q = take(size_t(n));  // checked against the bytes left
                bool fits = true;
                const int64_t v = to_int64(q, size_t(n), fits);
                if (!fits) error("an integer outside int64's range");
                push(IValue(v));
                return false;
            }
            case 'G': {
                const uint8_t* q = take(8);  // big-endian
                uint64_t bits = 0;
                for (int i = 0; i < 8; ++i) bits = bits << 8 | q[i];
                push(IValue(std::bit_cast<double>(bits)));
                return false;
            }
            case 'X': {
                const uint64_t n = le(4);
                const uint8_t* q = take(size_t(n));
                push(IValue(std::string(reinterpret_cast<const char*>(q), size_t(n))));
                return false;
            }
            case ']': push(detail_pickle_access::empty(Tag::List)); return false;
            case ')': push(IValue::tuple({})); return false;
            case '}': push(detail_pickle_access::empty(Tag::GenericDict)); return false;
            case 'l': {  // LIST: the items since MARK
                std::vector<Item> items = pop_mark();
                IValue list = detail_pickle_access::empty(Tag::List);
                for (auto& it : items) append(list, std::move(it));
                push(std::move(list));
                return false;
            }
            case 'd': {  // DICT: key, value pairs since MARK
                std::vector<Item> items = pop_mark();
                if (items.size() % 2) error("DICT with an odd number of items");
                IValue dict = detail_pickle_access::empty(Tag::GenericDict);
                for (size_t i = 0; i < items.size(); i += 2) set_item(dict, std::move(items[i]), std::move(items[i + 1]));
                push(std::move(dict));
                return false;
            }
            case 't': push(make_tuple(pop_mark())); return false;
            case 0x85:
            case 0x86:
            case 0x87: {  // TUPLE1..3
                const size_t n = size_t(op_ - 0x84);
                std::vector<Item> items(n);
                for (size_t i = n; i-- > 0;) items[i] = pop();
                push(make_tuple(std::move(items)));
                return false;
            }
            case 'a': {
                Item item = pop();
                append(target(top(), Tag::List), std::move(item));
                return false;
            }
            case 'e': {
                std::vector<Item> items = pop_mark();
                const IValue& list = target(top(), Tag::List);
                for (auto& it : items) append(list, std::move(it));
                return false;
            }
            case 's': {
                Item value = pop();
                Item key = pop();
                set_item(target(top(), Tag::GenericDict), std::move(key), std::move(value));
                return false;
            }
            case 'u': {
                std::vector<Item> items = pop_mark();
                if (items.size() % 2) error("SETITEMS with an odd number of items");
                const IValue& dict = target(top(), Tag::GenericDict);
                for (size_t i = 0; i < items.size(); i += 2) set_item(dict, std::move(items[i]), std::move(items[i + 1]));
                return false;
            }
            case 'c': {
                const std::string module(line(256));
                const std::string name(line(256));
                Item g;
                g.k = Item::K::Global;
                if (module == "torch._utils" && name == "_rebuild_tensor_v2") g.global = kRebuildTensorV2;
                else if (module == "torch._utils" && name == "_rebuild_parameter") g.global = kRebuildParameter;
                else if (module == "collections" && name == "OrderedDict") g.global = kOrderedDict;
                else if (module == "torch" && storage_dtype(name, g.dtype)) g.global = kStorageClass;
                else error("the global '", module, ".", name, "' is not on the allow-list");
                push(std::move(g));
                return false;
            }
            case 'R': {
                Item args = pop();
                Item fn = pop();
                if (fn.k != Item::K::Global || fn.global == kStorageClass) error("REDUCE of ", kind(fn));
                std::vector<Item> a;
                if (args.k == Item::K::Tuple) a = *args.tuple;
                else if (args.k == Item::K::Value && args.v.isTuple())
                    for (const IValue& v : args.v.toTupleRef()) {
                        Item it;
                        it.v = v;
                        a.push_back(std::move(it));
                    }
                else error("REDUCE with arguments of type ", kind(args), ", expected a tuple");
                if (fn.global == kOrderedDict) {
                    if (!a.empty()) error("OrderedDict(...) with arguments (only OrderedDict() is supported)");
                    IValue d = detail_pickle_access::empty(Tag::GenericDict);
                    detail_pickle_access::set_ordered(d);
                    push(std::move(d));
                } else if (fn.global == kRebuildTensorV2) {
                    push(rebuild_tensor(a));
                } else {
                    push(rebuild_parameter(a));
                }
                return false;
            }
            case 'b': {  // BUILD: only an OrderedDict's state ({'_metadata': ...}), which is dropped
                Item state = pop();
                Item& obj = top();
                if (obj.k != Item::K::Value || !obj.v.isGenericDict())
                    error("BUILD of ", kind(obj), " (only an OrderedDict's state is supported)");
                if (state.k != Item::K::Value || !(state.v.isGenericDict() || state.v.isNone()))
                    error("BUILD with a state of type ", kind(state), ", expected a dict");
                return false;
            }
            case 'Q': push(persistent_load(pop())); return false;
            case 'q': memo_put(le(1)); return false;
            case 'r': memo_put(le(4)); return false;
            case 'h': memo_get(le(1)); return false;
            case 'j': memo_get(le(4)); return false;
            case 'p':
            case 'g': {  // PUT, GET: a decimal index on its own line
                const std::string_view s = line(20);
                uint64_t v = 0;
                if (s.empty()) error("an empty memo index");
                for (char c : s) {
                    if (c < '0' || c > '9' || v > (uint64_t(1) << 40)) error("a bad memo index");
                    v = v * 10 + uint64_t(c - '0');
                }
                if (op_ == 'p') memo_put(v);
                else memo_get(v);
                return false;
            }
            default: error("unsupported pickle opcode 0x", "0123456789abcdef"[op_ >> 4], "0123456789abcdef"[op_ & 15]);
        }
    }

    const uint8_t* p_;
    const uint8_t* end_;
    const uint8_t* begin_;
    std::string name_;
    StorageLoader loader_;
    uint8_t op_ = 0;
    size_t op_at_ = 0;
    std::vector<Item> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, Item> memo_;
    std::unordered_map<std::string, std::shared_ptr<const StorageRecord>> storages_;
};

/// What the pickler writes for a tensor's storage: its persistent id's key, location and size.
struct PickledStorage {
    std::string key;
    std::string location;
    int64_t numel = 0;
};

/// Writes IValues as a protocol-2 pickle, as torch.save does (tensors through _rebuild_tensor_v2
/// and a persistent id per storage; dicts marked ordered as collections.OrderedDict).
class Pickler {
public:
    explicit Pickler(std::function<PickledStorage(const TensorBase&)> storage_of)
        : storage_of_(std::move(storage_of)) {}

    std::string dump(const IValue& v) {
        out_.clear();
        out_ += "\x80\x02";
        write(v, 0);
        out_ += '.';
        return std::move(out_);
    }

private:
    void write(const IValue& v, int depth) {
        using Tag = IValue::Tag;
        if (depth > IValue::kMaxDepth) fail<value_error>("save: values nested more than ", IValue::kMaxDepth, " deep");
        switch (v.tag()) {
            case Tag::None: out_ += 'N'; break;
            case Tag::Bool: out_ += v.toBool() ? '\x88' : '\x89'; break;
            case Tag::Int: write_int(v.toInt()); break;
            case Tag::Double: {
                out_ += 'G';
                put_be(std::bit_cast<uint64_t>(v.toDouble()));
                break;
            }
            case Tag::String: write_string(v.toStringRef()); break;
            case Tag::Tensor: write_tensor(v.toTensor()); break;
            case Tag::List:
                out_ += ']';
                if (!v.toList().empty()) {
                    out_ += '(';
                    for (const IValue& x : v.toList()) write(x, depth + 1);
                    out_ += 'e';
                }
                break;
            case Tag::Tuple:
                if (v.toTupleRef().empty()) {
                    out_ += ')';
                } else {
                    out_ += '(';
                    for (const IValue& x : v.toTupleRef()) write(x, depth + 1);
                    out_ += 't';
                }
                break;
            case Tag::GenericDict: {
                const GenericDict& d = v.toGenericDict();
                if (d.ordered) out_ += "ccollections\nOrderedDict\n)R";
                else out_ += '}';
                if (!d.empty()) {
                    out_ += '(';
                    for (const auto& [k, x] : d.items()) {
                        write(k, depth + 1);
                        write(x, depth + 1);
                    }
                    out_ += 'u';
                }
                break;
            }
        }
    }
    void put_le(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out_ += char((v >> (8 * i)) & 0xff);
    }
    void put_be(uint64_t v) {
        for (int i = 7; i >= 0; --i) out_ += char((v >> (8 * i)) & 0xff);
    }
    void write_int(int64_t v) {
        if (v >= 0 && v < 256) {
            out_ += 'K';
            put_le(uint64_t(v), 1);
        } else if (v >= 0 && v < 65536) {
            out_ += 'M';
            put_le(uint64_t(v), 2);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            out_ += 'J';
            put_le(uint64_t(uint32_t(int32_t(v))), 4);
        } else {
            out_ += '\x8a';
            out_ += char(8);
            put_le(uint64_t(v), 8);
        }
    }
    void write_string(const std::string& s) {
        check_utf8(s);
        if (s.size() > UINT32_MAX) fail<value_error>("save: a string of ", s.size(), " bytes");
        out_ += 'X';
        put_le(s.size(), 4);
        out_ += s;
    }
    static void check_utf8(const std::string& s) {
        // Python decodes BINUNICODE as UTF-8: anything else would not load there.
        size_t i = 0;
        const auto* u = reinterpret_cast<const unsigned char*>(s.data());
        while (i < s.size()) {
            const unsigned c = u[i];
            const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
            bool ok = n != 0 && i + n <= s.size() && (n != 2 || c >= 0xc2);
            for (size_t k = 1; ok && k < n; ++k) ok = (u[i + k] & 0xc0) == 0x80;
            if (!ok) fail<value_error>("save: the string '", s, "' is not valid UTF-8 (Python could not read it)");
            i += n;
        }
    }
    void write_tensor(const TensorBase& t) {
        const PickledStorage s = storage_of_(t);
        bool requires_grad = false;  // a complex tensor never requires grad in tenet
        if (!t.dtype().is_complex())
            visit_dtype(t.dtype(), [&]<class U>(dtype_t<U>) { requires_grad = t.as<U>().requires_grad(); });
        out_ += "ctorch._utils\n_rebuild_tensor_v2\n((";
        write_string("storage");
        out_ += "ctorch\n";
        out_ += storage_class(t.dtype());
        out_ += '\n';
        write_string(s.key);
        write_string(s.location);
        write_int(s.numel);
        out_ += "tQ";
        write_int(t.storage_offset());
        out_ += '(';
        for (int64_t x : t.sizes()) write_int(x);
        out_ += "t(";
        for (int64_t x : t.strides()) write_int(x);
        out_ += 't';
        out_ += requires_grad ? '\x88' : '\x89';
        out_ += "ccollections\nOrderedDict\n)RtR";
    }

    std::function<PickledStorage(const TensorBase&)> storage_of_;
    std::string out_;
};

}  // namespace detail::pickle
}  // namespace tenet
