;; hook-lifecycle-tasks: exports murmur:hook/lifecycle@0.2.0 with the six required
;; functions plus the optional on-task-start and on-task-end.
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
    (export "on-task-start" (func $f))
    (export "on-task-end" (func $f))
  )
  (export "murmur:hook/lifecycle@0.2.0" (instance $lc))
)
