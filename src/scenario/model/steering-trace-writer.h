/*
 * steering.csv: one row per change of a sending queue pair's UDP source port (its ECMP
 * entropy), so a run's path steering can be followed and its rate limit checked without C++.
 */
#ifndef MCAST4AI_STEERING_TRACE_WRITER_H
#define MCAST4AI_STEERING_TRACE_WRITER_H

#include "rdma/model/queue-pair.h"

#include <fstream>
#include <string>

namespace ns3
{

/**
 * \brief Writes the repaths of the queue pairs it is attached to (PathSteering's Repath trace).
 */
class SteeringTraceWriter
{
public:
    /// Opens path; throws std::runtime_error if it cannot be written.
    explicit SteeringTraceWriter(const std::string& path);
    /// Follow one QP's steering (no-op if the QP steers nothing).
    void Attach(uint32_t host, Ptr<QueuePair> qp);

private:
    void Repathed(uint32_t host, uint32_t qpn, uint16_t from, uint16_t to);

    std::ofstream m_out;
};

} // namespace ns3

#endif /* MCAST4AI_STEERING_TRACE_WRITER_H */
