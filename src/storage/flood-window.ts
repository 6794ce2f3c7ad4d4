// The Redis step shared by the flood limiter (http/flood.ts) and the usage counter's one-script admission
// (accounts/usage.ts): kept here, below both, so that accounts does not depend on http.

/** Counts one request in the window KEYS[1] (expiring after ARGV[1] ms) as the Lua local `count`. */
export const FLOOD_HIT_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
`;
