/*
 * The BIER BitString (RFC 8279 §3, encoded as RFC 8296 §2.1 prescribes): a fixed-length set of
 * bit positions, one per egress router (BFER) of a set identifier.
 */
#ifndef MCAST4AI_BIT_STRING_H
#define MCAST4AI_BIT_STRING_H

#include "ns3/buffer.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief A BIER BitString of 64..4096 bits (a power of two), as a plain value type.
 *
 * Numbering: bit index k (0-based) is BitPosition k+1, i.e. it stands for the BFR whose BFR-id
 * is SI * Length() + k + 1 in the set identifier (SI) the packet is addressed to. Within SI 0,
 * bit k is simply BFR-id k+1.
 *
 * Storage: word w of Words() holds indices 64w..64w+63, index k at bit (k % 64) of its word.
 *
 * Wire encoding (RFC 8296): the BitString is Length()/8 octets and the rightmost bit of the last
 * octet is BitPosition 1. Index k lives in octet (Length()/8 - 1 - k/8), at bit (k % 8) counted
 * from the least significant bit of that octet. Equivalently, the octets are the big-endian
 * encoding of the Length()-bit integer sum(2^k) over the set indices, so the words are written
 * last word first, each in network byte order.
 *
 * All set operations are word-wise; ForEachSet() visits set bits with count-trailing-zeros, so
 * iterating a sparse 4096-bit string costs 64 word tests plus one step per set bit.
 */
class BitString
{
public:
    /// Smallest length RFC 8296 can carry (BSL code 1).
    static constexpr uint32_t MIN_BITS = 64;
    /// Largest length RFC 8296 can carry (BSL code 7).
    static constexpr uint32_t MAX_BITS = 4096;

    /**
     * \param lengthBits 64, 128, ..., 4096; aborts otherwise. All bits start clear.
     */
    explicit BitString(uint32_t lengthBits = 256);

    /// \return true if \p bits is a length RFC 8296 can encode (64..4096, a power of two)
    static bool IsValidLength(uint32_t bits);

    /// \return the length in bits
    uint32_t Length() const;
    /// \return the length on the wire, Length() / 8
    uint32_t SizeBytes() const;

    /// \param bit index 0..Length()-1 (BitPosition bit+1)
    void Set(uint32_t bit);
    /// \param bit index 0..Length()-1
    void Clear(uint32_t bit);
    /// \param bit index 0..Length()-1
    /// \return true if the bit is set
    bool Test(uint32_t bit) const;
    /// Clears every bit; the length stays.
    void Reset();

    /// \return true if at least one bit is set
    bool Any() const;
    /// \return the number of set bits
    uint32_t Count() const;
    /// \return the smallest set index, or Length() if none is set
    uint32_t LowestSet() const;

    /*
     * Binary operations expect operands of equal length (asserted). In builds without asserts a
     * shorter operand behaves as if zero-extended.
     */
    BitString operator&(const BitString& other) const;
    BitString operator|(const BitString& other) const;
    BitString& operator&=(const BitString& other);
    BitString& operator|=(const BitString& other);
    /// \return this & ~other: the bits of this that \p other does not have
    BitString AndNot(const BitString& other) const;
    /// In-place this &= ~other, without allocating (the forwarding loop's "clear served bits").
    BitString& AndNotAssign(const BitString& other);
    /// \return true if this and \p other share a set bit (no temporary is built)
    bool Intersects(const BitString& other) const;
    /// \return true if lengths and bits are equal
    bool operator==(const BitString& other) const;
    bool operator!=(const BitString& other) const;

    /**
     * Calls \p f(uint32_t index) for each set bit, in ascending index order.
     * \p f must not change this BitString.
     */
    template<typename F>
    void ForEachSet(F&& f) const
    {
        const uint32_t n = static_cast<uint32_t>(m_words.size());
        for (uint32_t w = 0; w < n; ++w)
        {
            uint64_t word = m_words[w];
            while (word != 0)
            {
                f(w * 64 + static_cast<uint32_t>(__builtin_ctzll(word)));
                word &= word - 1;
            }
        }
    }

    /// \return the storage words, word w holding indices 64w..64w+63
    const std::vector<uint64_t>& Words() const;
    /// Overwrites every bit from Length() / 64 words laid out as Words() (no allocation).
    void AssignWords(const uint64_t* words);

    /// Writes the SizeBytes() octets in RFC 8296 order and advances \p i past them.
    void Serialize(Buffer::Iterator& i) const;
    /// Reads SizeBytes() octets (this object's current length) and advances \p i past them.
    void Deserialize(Buffer::Iterator& i);
    /// Writes the SizeBytes() octets in RFC 8296 order to \p out (for in-place header rewrites).
    void WriteBytes(uint8_t* out) const;
    /// Reads SizeBytes() octets in RFC 8296 order from \p in.
    void ReadBytes(const uint8_t* in);

    /// \return the wire octets as lower-case hex, first octet first (2 * SizeBytes() digits)
    std::string ToHex() const;

private:
    uint32_t m_length;             //!< in bits
    std::vector<uint64_t> m_words; //!< m_length / 64 words, index k in word k / 64
};

/// Prints the length and the set indices, e.g. "64:{0,1,63}".
std::ostream& operator<<(std::ostream& os, const BitString& bs);

} // namespace ns3

#endif // MCAST4AI_BIT_STRING_H
