;; clock-preinit: a guest whose core start function reads the monotonic
;; clock, for the test that a store restored from a snapshot never reads a
;; time below the one baked into it.
;;
;; Imports:  wasi:clocks/monotonic-clock@0.2.0 { now: func() -> instant }
;; Exports:  test:guest/clock@0.1.0 {
;;             at-init: func() -> u64 (what the start function read);
;;             now: func() -> u64 (the clock, read at the call) }
(component
  (import "wasi:clocks/monotonic-clock@0.2.0" (instance $mono
    (type $instant u64)
    (export "instant" (type $i (eq $instant)))
    (export "now" (func (result $i)))))
  (alias export $mono "now" (func $now))
  (core func $now-lowered (canon lower (func $now)))
  (core module $m
    (import "host" "now" (func $now (result i64)))
    (global $at-init (mut i64) (i64.const 0))
    (func $init (global.set $at-init (call $now)))
    (start $init)
    (func (export "at-init") (result i64) (global.get $at-init))
    (func (export "now") (result i64) (call $now)))
  (core instance $host (export "now" (func $now-lowered)))
  (core instance $i (instantiate $m (with "host" (instance $host))))
  (func $at-init (result u64) (canon lift (core func $i "at-init")))
  (func $now-exp (result u64) (canon lift (core func $i "now")))
  (instance $clock
    (export "at-init" (func $at-init))
    (export "now" (func $now-exp)))
  (export "test:guest/clock@0.1.0" (instance $clock)))
