/*
 * A trace source that lives in a member structure of an object (a stats object such as
 * RdmaNicCounters) rather than in the object itself: ns-3's MakeTraceSourceAccessor takes a
 * pointer to a member of the object, which cannot name a member's member.
 */
#ifndef MCAST4AI_MEMBER_TRACE_SOURCE_ACCESSOR_H
#define MCAST4AI_MEMBER_TRACE_SOURCE_ACCESSOR_H

#include "ns3/trace-source-accessor.h"

#include <string>

namespace ns3
{

/**
 * The trace source `source` of the structure `member` of T, for TypeId::AddTraceSource:
 * `MakeMemberTraceSourceAccessor(&RdmaNic::m_counters, &RdmaNicCounters::lost)`.
 */
template<typename T, typename S, typename SOURCE>
Ptr<const TraceSourceAccessor>
MakeMemberTraceSourceAccessor(S T::*member, SOURCE S::*source)
{
    struct Accessor : public TraceSourceAccessor
    {
        SOURCE* Find(ObjectBase* obj) const
        {
            T* p = dynamic_cast<T*>(obj);
            return p ? &((p->*m_member).*m_source) : nullptr;
        }

        bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            SOURCE* s = Find(obj);
            if (s)
            {
                s->ConnectWithoutContext(cb);
            }
            return s != nullptr;
        }

        bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            SOURCE* s = Find(obj);
            if (s)
            {
                s->Connect(cb, context);
            }
            return s != nullptr;
        }

        bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            SOURCE* s = Find(obj);
            if (s)
            {
                s->DisconnectWithoutContext(cb);
            }
            return s != nullptr;
        }

        bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            SOURCE* s = Find(obj);
            if (s)
            {
                s->Disconnect(cb, context);
            }
            return s != nullptr;
        }

        S T::*m_member;
        SOURCE S::*m_source;
    }* accessor = new Accessor();

    accessor->m_member = member;
    accessor->m_source = source;
    return Ptr<const TraceSourceAccessor>(accessor, false);
}

} // namespace ns3

#endif /* MCAST4AI_MEMBER_TRACE_SOURCE_ACCESSOR_H */
