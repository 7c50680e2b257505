/*
 * An MoE router's recorded decisions (moe-dispatch `gating: recorded`): per layer and token,
 * the top-k experts it chose, as a router would dump them, instead of drawn ones.
 */
#ifndef MCAST4AI_RECORDED_ROUTING_H
#define MCAST4AI_RECORDED_ROUTING_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief The experts each token of each layer was routed to, read from a text file.
 *
 * One line per layer and token, "LAYER TOKEN E1 ... Ek" ('#' starts a comment): token t of
 * rank r is r x tokens_per_rank + t, experts are 0..experts-1, distinct, k = top_k. Every
 * token of layers 0..layers-1 appears exactly once; lines of later layers are not used.
 */
class RecordedRouting
{
public:
    /// Read `path`. \return an error naming the file and line, or nullopt with `out` filled.
    static std::optional<std::string> Read(const std::string& path,
                                           uint32_t layers,
                                           uint32_t tokens,
                                           uint32_t topK,
                                           uint32_t experts,
                                           RecordedRouting& out);
    /// The top_k experts of token (rank x tokens_per_rank + t) in layer.
    const uint32_t* Experts(uint32_t layer, uint32_t token) const;

private:
    uint32_t m_tokens{0};
    uint32_t m_topK{0};
    std::vector<uint32_t> m_experts; ///< [layer][token][k]
};

} // namespace ns3

#endif /* MCAST4AI_RECORDED_ROUTING_H */
