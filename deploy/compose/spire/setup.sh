#!/bin/sh
# One shot (compose service spire-setup): a join token for the agent, aliased to a fixed SPIFFE ID,
# and one registration entry per workload selected by its container label io.spiffeidt.workload.
set -eu
sock=/tmp/spire-server/private/api.sock
td=example.org
agent_id=spiffe://$td/agent/compose
if [ ! -s /run/spire/bootstrap/agent.token ]; then
  spire-server token generate -socketPath "$sock" -spiffeID "$agent_id" -ttl 3600 \
    | sed -n 's/^Token: //p' > /run/spire/bootstrap/agent.token
fi
for wl in subject-wl asserting-wl m-tier target-wl; do
  if ! spire-server entry show -socketPath "$sock" -spiffeID "spiffe://$td/$wl" | grep -q "spiffe://$td/$wl"; then
    spire-server entry create -socketPath "$sock" -parentID "$agent_id" -spiffeID "spiffe://$td/$wl" \
      -selector "docker:label:io.spiffeidt.workload:$wl" -x509SVIDTTL 3600
  fi
done
echo "spire-setup: agent token and $(spire-server entry count -socketPath "$sock" 2>/dev/null || echo 4) entries ready"
