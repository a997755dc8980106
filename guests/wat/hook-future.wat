;; hook-future: the six required lifecycle functions as no-argument stubs (as in
;; hook-lifecycle), exported as murmur:hook/lifecycle@0.6.0: a later version
;; than any this runtime hosts, so resolution must name what it does host.
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
  (export "murmur:hook/lifecycle@0.6.0" (instance $lc))
)
