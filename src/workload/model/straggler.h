/*
 * A straggler: something that makes part of a run slower than the rest, the cause of tail
 * latency in synchronised training steps. Straggler types are chosen by the name a scenario
 * gives them (stragglers[].type). A straggler acts in one of two ways: it changes the compute
 * time a rank of a workload spends before an iteration (AdjustCompute, asked by the
 * collectives), or it changes the fabric while the run goes (a link's rate, cross-traffic),
 * from DoInstall. Either way it records each event that fired in the run's StragglerLog.
 */
#ifndef MCAST4AI_STRAGGLER_H
#define MCAST4AI_STRAGGLER_H

#include "fabric/model/fabric-net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "rdma/model/rdma-nic.h"
#include "workload/model/straggler-config.h"
#include "workload/model/straggler-log.h"
#include "workload/model/straggler-type-registry.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Base class of every straggler type.
 *
 * Lifecycle: the runner creates the straggler by its type name and calls Install() once,
 * before the workloads are installed. Random choices are counter-based (Draw): each depends
 * only on the scenario's seed, the straggler and what it is drawn for, never on the order in
 * which events happen to ask, so adding a straggler or a workload reshuffles no other.
 */
class Straggler : public Object
{
public:
    static TypeId GetTypeId();

    /// What a straggler is installed into.
    struct Context
    {
        std::vector<Ptr<RdmaNic>> nics;             ///< by host index
        std::vector<Ptr<FabricNetDevice>> torPorts; ///< by host: the ToR's port toward it
        std::vector<std::string> workloads;         ///< labels, by index in workloads[]
        Ptr<StragglerLog> log;
        uint32_t index{0}; ///< position in the scenario's stragglers[]
        uint64_t seed{1};  ///< the scenario's seed
        /// Whose traffic the frames it sends are (FrameInfo::owner); 0 for none.
        uint8_t owner{0};
    };

    void Install(const StragglerConfig& config, const Context& context);

    /**
     * The compute time of a rank before an iteration, given what it is without this straggler
     * (the collectives ask every straggler in stragglers[] order, each refining the last).
     *
     * \param workload index in workloads[]
     * \param host the rank's host
     * \param iteration the iteration about to start
     * \param compute the compute time so far
     */
    virtual Time AdjustCompute(uint32_t workload, uint32_t host, uint32_t iteration, Time compute);

    /// Figures of this straggler for its summary.json entry (beyond its event count).
    virtual void Report(std::map<std::string, double>& figures) const;
    /// Why this type does not run on a fabric of several planes, which the runner refuses it
    /// on; empty (the default: a change of compute time holds for the XPU) if it does.
    virtual std::string MultiPlaneRefusal() const;

    const StragglerConfig& GetConfig() const;
    /// Events this straggler recorded so far.
    uint64_t GetEventCount() const;

    /// Signature of the Fired trace: straggler index, host (-1: none), iteration (-1: none).
    typedef void (*FiredTracedCallback)(uint32_t straggler, int64_t host, int64_t iteration);

protected:
    void DoDispose() override;
    /// Read the keys; schedule what changes the fabric.
    virtual void DoInstall() = 0;
    /// Record an event (time: now) in the log and fire the Fired trace.
    void Record(StragglerLog::Event e);
    /**
     * A uniform draw in [0, 1) fixed by the seed, this straggler and (a, b, c, k): the k-th
     * draw for, say, (workload, host, iteration).
     */
    double Draw(uint64_t a, uint64_t b, uint64_t c, uint64_t k = 0) const;
    /// Whether the entry's optional `workload` (a label) and `ranks` (hosts) keys select it.
    bool Selects(uint32_t workload, uint32_t host) const;
    /**
     * \return the keys of this straggler's type that are bound to S (a struct of the type's
     * own, or StragglerWindowKeys), read from the entry as validated; the attributes its keys
     * name are set before DoInstall
     */
    template<class S>
    S ReadKeys() const
    {
        S keys;
        StragglerTypeRegistry::Instance().ReadBound(m_config.type, m_config.spec, &keys, typeid(S));
        return keys;
    }

    StragglerConfig m_config;
    Context m_context;

private:
    std::set<uint32_t> m_hosts; ///< from `ranks`; empty: every host
    int64_t m_workload{-1};     ///< from `workload`; -1: every workload
    uint64_t m_events{0};
    TracedCallback<uint32_t, int64_t, int64_t> m_firedTrace;
};

} // namespace ns3

#endif /* MCAST4AI_STRAGGLER_H */
