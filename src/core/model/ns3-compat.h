/*
 * The one place where the module meets differences between ns-3 releases. Everything else
 * calls only APIs that Debian's ns-3.37 and current ns-3-dev both have, so that one source
 * tree builds unchanged in either (docs/install.md lists the versions checked).
 *
 * The build says which ns-3 it compiles against: CMakeLists.txt defines
 * MCAST4AI_NS3_VERSION_{MAJOR,MINOR,STRING} from the installed package's version (standalone)
 * or from the source tree's VERSION file (contrib/), where a development tree ("3-dev") counts
 * as newer than every release. Failing that, an installed ns3/version-defines.h gives them.
 */
#ifndef MCAST4AI_NS3_COMPAT_H
#define MCAST4AI_NS3_COMPAT_H

#include "ns3/channel-list.h"
#include "ns3/enum.h"
#include "ns3/event-id.h"
#include "ns3/node-list.h"
#include "ns3/node.h"

#include <cstdint>

#if !defined(MCAST4AI_NS3_VERSION_MAJOR) && __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#define MCAST4AI_NS3_VERSION_MAJOR NS3_VERSION_MAJOR
#define MCAST4AI_NS3_VERSION_MINOR NS3_VERSION_MINOR
#endif
#ifndef MCAST4AI_NS3_VERSION_MAJOR
#error "mcast4ai: the ns-3 version is unknown; build through CMakeLists.txt or wscript"
#endif
#ifndef MCAST4AI_NS3_VERSION_STRING
#define MCAST4AI_NS3_VERSION_STRING "unknown"
#endif

/// True when compiling against ns-3 MAJOR.MINOR or later.
#define MCAST4AI_NS3_AT_LEAST(major, minor) \
    (MCAST4AI_NS3_VERSION_MAJOR > (major)   \
     || (MCAST4AI_NS3_VERSION_MAJOR == (major) && MCAST4AI_NS3_VERSION_MINOR >= (minor)))

namespace ns3
{

/// The ns-3 release the module was compiled against, as its VERSION file spells it ("3.37",
/// "3-dev"); summary.json records it, since ns-3's own events differ between releases.
constexpr const char* kNs3Version = MCAST4AI_NS3_VERSION_STRING;

/// Whether an event is scheduled and has neither run nor been cancelled. ns-3.42 renamed
/// EventId::IsRunning to IsPending and later releases drop the old name.
inline bool
IsPending(const EventId& event)
{
#if MCAST4AI_NS3_AT_LEAST(3, 42)
    return event.IsPending();
#else
    return event.IsRunning();
#endif
}

/// The accessor of an enum attribute held in member (or set and got through a pair of
/// methods). ns-3.41 made EnumValue a template whose accessor names the enum type; 3.37 to
/// 3.40 take the member alone and reject the template argument.
template<typename Enum, typename... Member>
Ptr<const AttributeAccessor>
MakeEnumAccessorFor(Member... member)
{
#if MCAST4AI_NS3_AT_LEAST(3, 41)
    return MakeEnumAccessor<Enum>(member...);
#else
    return MakeEnumAccessor(member...);
#endif
}

/// The events ns-3 schedules for itself at time zero to initialise a simulation's objects: one
/// per node (NodeList::Add), device (Node::AddDevice) and application (Node::AddApplication),
/// and from ns-3.41 one per channel (ChannelList::Add). Counts of model events leave them out,
/// so that they are the same whichever ns-3 runs the model. Call it before Simulator::Run.
inline uint64_t
Ns3InitializationEvents()
{
    uint64_t events = NodeList::GetNNodes();
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        events += (*node)->GetNDevices() + (*node)->GetNApplications();
    }
#if MCAST4AI_NS3_AT_LEAST(3, 41)
    events += ChannelList::GetNChannels();
#endif
    return events;
}

} // namespace ns3

#endif
