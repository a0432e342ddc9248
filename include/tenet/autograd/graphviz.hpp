#pragma once
// to_dot(output): the graph recorded for `output`, as Graphviz text.
//
// One box per node, labelled with its grad_fn name (a leaf's AccumulateGrad also shows the
// leaf's sizes); an arrow from each input's node to the node that consumed it, so the
// graph reads from the leaves down to the output, as torchviz draws PyTorch's graphs.
// Render with `dot -Tsvg graph.dot -o graph.svg`.

#include "tenet/config.hpp"
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "tenet/autograd/engine.hpp"
#include "tenet/autograd/node.hpp"

namespace tenet::inline TENET_ABI::autograd {

inline std::string to_dot(const TensorBase& output) {
    const Edge root = gradient_edge(output);
    if (!root.valid())
        detail::fail<error>("to_dot: the tensor (sizes ", output.sizes(),
                            ") does not require grad and has no grad_fn: nothing was recorded");
    std::unordered_map<const Node*, size_t> id;
    std::vector<const Node*> order;
    auto visit = [&](const Node* n) {
        auto [it, inserted] = id.emplace(n, order.size());
        if (inserted) order.push_back(n);
        return it->second;
    };
    visit(root.fn.get());
    std::ostringstream edges;
    for (size_t k = 0; k < order.size(); ++k) {  // order grows while we walk: a breadth-first walk
        for (const Edge& e : order[k]->next_edges)
            if (e.valid()) edges << "  n" << visit(e.fn.get()) << " -> n" << k << ";\n";
    }
    std::ostringstream dot;
    dot << "digraph autograd {\n  node [shape=box, fontname=\"monospace\"];\n";
    for (size_t k = 0; k < order.size(); ++k) {
        dot << "  n" << k << " [label=\"" << order[k]->name();
        if (const auto* acc = dynamic_cast<const AccumulateGrad*>(order[k]))
            dot << "\\n" << acc->variable.sizes() << "\", style=filled, fillcolor=lightblue";
        else dot << "\"";
        dot << "];\n";
    }
    dot << edges.str() << "}\n";
    return dot.str();
}

}  // namespace tenet::autograd
