;; hook-unversioned: exports only the unversioned murmur:hook/lifecycle (all six
;; required functions); the host resolves the versioned name only, so this
;; must fail as "missing export murmur:hook/lifecycle@0.2.0".
;;
;; Every function is a no-argument `(func)` lifted from one core no-op. The
;; host resolves hook exports by name only, so these stubs suffice for
;; resolution; a typed call against them fails its signature check, which
;; is itself a usable "dispatch attempted" signal.
(component
  (core module $m (func (export "f")))
  (core instance $i (instantiate $m))
  (func $f (canon lift (core func $i "f")))
  (instance $lc
    (export "on-session-start" (func $f))
    (export "on-inference" (func $f))
    (export "on-tool-call" (func $f))
    (export "on-shell" (func $f))
    (export "on-compaction" (func $f))
    (export "on-session-end" (func $f))
  )
  (export "murmur:hook/lifecycle" (instance $lc))
)
