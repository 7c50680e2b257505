#include "workload/model/recorded-routing.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{

std::optional<std::string>
RecordedRouting::Read(const std::string& path,
                      uint32_t layers,
                      uint32_t tokens,
                      uint32_t topK,
                      uint32_t experts,
                      RecordedRouting& out)
{
    std::ifstream in(path);
    if (!in)
    {
        return path + ": cannot read";
    }
    out = RecordedRouting();
    out.m_tokens = tokens;
    out.m_topK = topK;
    out.m_experts.assign(uint64_t{layers} * tokens * topK, 0);
    std::vector<bool> seen(uint64_t{layers} * tokens, false);
    std::string line;
    for (uint64_t n = 1; std::getline(in, line); ++n)
    {
        line = line.substr(0, line.find('#'));
        std::istringstream is(line);
        int64_t layer = 0;
        if (!(is >> layer))
        {
            continue; // blank or a comment
        }
        const std::string at = path + " line " + std::to_string(n) + ": ";
        int64_t token = 0;
        if (!(is >> token) || layer < 0 || token < 0 || token >= tokens)
        {
            return at + "expected \"LAYER TOKEN E1 ... E" + std::to_string(topK)
                   + "\" with a token below " + std::to_string(tokens)
                   + " (ranks x tokens_per_rank)";
        }
        if (layer >= layers)
        {
            continue; // a layer the workload does not run
        }
        std::vector<int64_t> chosen;
        int64_t e = 0;
        while (is >> e)
        {
            chosen.push_back(e);
        }
        std::string rest;
        is.clear();
        if ((is >> rest) || chosen.size() != topK)
        {
            return at + "expected " + std::to_string(topK)
                   + " experts (top_k) after the layer "
                     "and token";
        }
        std::vector<int64_t> sorted = chosen;
        std::sort(sorted.begin(), sorted.end());
        if (sorted.front() < 0 || sorted.back() >= experts
            || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        {
            return at + "the experts must be distinct, in 0.." + std::to_string(experts - 1);
        }
        const uint64_t slot = uint64_t(layer) * tokens + uint64_t(token);
        if (seen[slot])
        {
            return at + "layer " + std::to_string(layer) + " token " + std::to_string(token)
                   + " a second time";
        }
        seen[slot] = true;
        std::copy(chosen.begin(), chosen.end(), out.m_experts.begin() + slot * topK);
    }
    auto missing = std::find(seen.begin(), seen.end(), false);
    if (missing != seen.end())
    {
        const uint64_t slot = missing - seen.begin();
        return path + ": no line for layer " + std::to_string(slot / tokens) + " token "
               + std::to_string(slot % tokens) + " (every token of layers 0.."
               + std::to_string(layers - 1) + " needs one)";
    }
    return std::nullopt;
}

const uint32_t*
RecordedRouting::Experts(uint32_t layer, uint32_t token) const
{
    return m_experts.data() + (uint64_t{layer} * m_tokens + token) * m_topK;
}

} // namespace ns3
