/*
 * Writing a CE mark into a frame's bytes: the IPv4 header sits behind Ethernet, and for P2MP
 * frames behind the mechanism's header too.
 */
#ifndef MCAST4AI_ECN_REWRITE_H
#define MCAST4AI_ECN_REWRITE_H

#include "ns3/packet.h"
#include "wire/model/frame-info.h"

namespace ns3
{

/**
 * Set ECN = CE (and the IPv4 checksum) in the IPv4 header of an Ethernet frame whose P2MP
 * header, if any, is of kind. Headers come off and go back on in place, so the packet keeps
 * one fragment (concatenating packets would teach ns-3's buffer allocator a larger size for
 * every later packet). The RoCEv2 ICRC masks the ECN bits and is left as it is.
 */
void RewriteCe(Ptr<Packet> frame, FrameInfo::P2mpKind kind);

} // namespace ns3

#endif /* MCAST4AI_ECN_REWRITE_H */
