# The README's walk-through as shell functions, for the deployment ITs (sourced, not run).
# The caller sets `base` (subject-wl's URL) and `idp` (the IdP's URL) and defines `log` and `fail`.
#   token_for USER                      an access token from the development IdP's /dev/token
#   call MODE OP TOKEN [JSON]           POST /api/MODE/OP; prints the body, fails on a non-2xx answer
#   warm_up TOKEN                       one balance per mode, retried while the tiers warm up (max 120 s)
#   walk_through USER                   mint, balance, deposit 25 in every mode; the balance must grow by 25
# CALL_HEADERS, when set to a file path, receives the last call's response headers.
modes=(dvid id-mode anon-mode lsvid)

token_for() { curl -sf --max-time 30 -d "username=$1" -d password=password "$idp/dev/token" | jq -r .access_token; }

call() {
  local body status
  body=$(curl -s --max-time 30 ${CALL_HEADERS:+-D "$CALL_HEADERS"} -w '\n%{http_code}' -X POST \
    -H "Authorization: Bearer $3" -H 'Content-Type: application/json' ${4:+-d "$4"} "$base/api/$1/$2")
  status=${body##*$'\n'}
  body=${body%$'\n'*}
  if [ "${status:0:1}" != 2 ]; then echo "$1 $2 -> HTTP $status $body" >&2; return 1; fi
  echo "$body"
}

warm_up() {
  local mode deadline=$(($(date +%s) + 120)) tries
  for mode in "${modes[@]}"; do
    tries=0
    until call "$mode" balance "$1" >/dev/null 2>&1; do
      tries=$((tries + 1))
      [ "$(date +%s)" -lt "$deadline" ] || fail "warm-up: $mode balance did not succeed within 120 s"
      sleep 2
    done
    log "  warm-up: $mode balance answered after $tries failed tries"
  done
}

walk_through() {
  local t mode before after
  t=$(token_for "$1")
  [ -n "$t" ] && [ "$t" != null ] || fail "no token from the IdP at $idp"
  for mode in "${modes[@]}"; do
    call "$mode" mint "$t" >/dev/null || fail "$mode mint"
    before=$(call "$mode" balance "$t" | jq -r .balance) || fail "$mode balance"
    after=$(call "$mode" deposit "$t" '{"amount": 25}' | jq -r .balance) || fail "$mode deposit"
    [ "$after" = $((before + 25)) ] || fail "$mode: balance $before + 25 gave $after"
    log "  $mode: mint, balance $before, deposit 25 -> $after"
  done
}
