/*
 * Plain values packed one after the other into bytes, and read back in the same order: what
 * the processes of a distributed run send each other once the simulation is over.
 */
#ifndef MCAST4AI_PACKED_BYTES_H
#define MCAST4AI_PACKED_BYTES_H

#include "ns3/abort.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \brief A byte string values are appended to (Put) and taken from in order (Take).
 *
 * Values are copied as their bytes: writer and reader are the same program on the same kind
 * of machine (the ranks of one mpirun). Reading past the end aborts: the two sides disagree.
 */
class PackedBytes
{
public:
    PackedBytes() = default;
    explicit PackedBytes(std::vector<uint8_t> bytes)
        : m_bytes(std::move(bytes))
    {
    }

    template<class T>
    void Put(const T& value)
    {
        static_assert(std::is_trivially_copyable<T>::value, "PackedBytes copies bytes");
        const std::size_t at = m_bytes.size();
        m_bytes.resize(at + sizeof(T));
        std::memcpy(m_bytes.data() + at, &value, sizeof(T));
    }

    void PutString(const std::string& s)
    {
        Put<uint64_t>(s.size());
        m_bytes.insert(m_bytes.end(), s.begin(), s.end());
    }

    template<class T>
    T Take()
    {
        static_assert(std::is_trivially_copyable<T>::value, "PackedBytes copies bytes");
        NS_ABORT_MSG_IF(m_read + sizeof(T) > m_bytes.size(), "PackedBytes: read past the end");
        T value;
        std::memcpy(&value, m_bytes.data() + m_read, sizeof(T));
        m_read += sizeof(T);
        return value;
    }

    std::string TakeString()
    {
        const auto n = Take<uint64_t>();
        NS_ABORT_MSG_IF(m_read + n > m_bytes.size(), "PackedBytes: read past the end");
        std::string s(reinterpret_cast<const char*>(m_bytes.data() + m_read), n);
        m_read += n;
        return s;
    }

    /// Everything read.
    bool AtEnd() const
    {
        return m_read == m_bytes.size();
    }

    const std::vector<uint8_t>& GetBytes() const
    {
        return m_bytes;
    }

private:
    std::vector<uint8_t> m_bytes;
    std::size_t m_read{0};
};

} // namespace ns3

#endif // MCAST4AI_PACKED_BYTES_H
