#include "workload/model/plane-spread.h"

#include "core/model/mix64.h"
#include "ns3/log.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PlaneSpread");

uint32_t
PlaneSpread::HashPlane(const CollectiveSchedule::Transfer& tr, uint32_t planes, uint64_t seed)
{
    uint64_t h = Mix64(seed ^ (uint64_t{tr.src} << 32));
    if (tr.receivers)
    {
        for (uint32_t r : *tr.receivers)
        {
            h = Mix64(h ^ r);
        }
    }
    else
    {
        h = Mix64(h ^ tr.dst);
    }
    return static_cast<uint32_t>(h % planes);
}

CollectiveSchedule
PlaneSpread::Apply(const CollectiveSchedule& in,
                   uint32_t planes,
                   PlaneSpreadRule rule,
                   uint64_t seed)
{
    if (planes <= 1)
    {
        return in;
    }
    CollectiveSchedule out(in.GetRanks());
    for (const std::string& phase : in.GetPhases())
    {
        out.SetPhase(phase); // every phase at its index, even one without transfers
    }
    const uint32_t n = in.GetTransferCount();
    // Each transfer's parts in the new graph: consecutive indices first[t] .. first[t+1]-1.
    std::vector<uint32_t> first(n + 1, 0);
    for (uint32_t t = 0; t < n; ++t)
    {
        const CollectiveSchedule::Transfer& tr = in.GetTransfer(t);
        out.SetPhase(tr.phase == CollectiveSchedule::NO_PHASE ? "" : in.GetPhases()[tr.phase]);
        first[t] = out.GetTransferCount();
        if (tr.local)
        {
            out.AddLocal(tr.src, tr.delayNs, tr.step);
            continue;
        }
        auto add = [&out, &tr](uint64_t bytes, uint32_t plane)
        {
            const uint32_t u = tr.receivers ? out.AddMulticast(tr.src, tr.receivers, bytes, tr.step)
                                            : out.AddUnicast(tr.src, tr.dst, bytes, tr.step);
            out.SetPlane(u, static_cast<uint16_t>(plane));
        };
        if (rule == PlaneSpreadRule::HASH)
        {
            add(tr.bytes, HashPlane(tr, planes, seed));
            continue;
        }
        const uint64_t parts = std::clamp<uint64_t>(tr.bytes, 1, planes);
        for (uint32_t p = 0; p < parts; ++p)
        {
            add(tr.bytes / parts + (p < tr.bytes % parts ? 1 : 0), p);
        }
    }
    first[n] = out.GetTransferCount();
    for (uint32_t t = 0; t < n; ++t)
    {
        const uint32_t from = first[t];
        const uint32_t fromParts = first[t + 1] - from;
        for (uint32_t d : in.GetDependents(t))
        {
            const uint32_t to = first[d];
            const uint32_t toParts = first[d + 1] - to;
            for (uint32_t q = 0; q < toParts; ++q)
            {
                if (fromParts == toParts && fromParts > 1)
                {
                    out.AddDependency(to + q, from + q); // plane by plane
                    continue;
                }
                for (uint32_t p = 0; p < fromParts; ++p)
                {
                    out.AddDependency(to + q, from + p);
                }
            }
        }
    }
    NS_LOG_INFO(n << " transfers over " << planes << " planes ("
                  << (rule == PlaneSpreadRule::HASH ? "hash" : "stripe")
                  << "): " << out.GetTransferCount());
    return out;
}

} // namespace ns3
