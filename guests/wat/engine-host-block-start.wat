;; engine-host-block-start: engine-host-block whose host calls happen while
;; it is instantiated (stuck-instantiation tests).
;;
;; Imports:  test:host/block@0.1.0 { wait: func(); after: func() }
;; Exports:  nothing; a core start function calls wait, then after.
(component
  (import "test:host/block@0.1.0" (instance $block
    (export "wait" (func))
    (export "after" (func))))
  (alias export $block "wait" (func $wait))
  (alias export $block "after" (func $after))
  (core func $wait-lowered (canon lower (func $wait)))
  (core func $after-lowered (canon lower (func $after)))
  (core module $m
    (import "host" "wait" (func $wait))
    (import "host" "after" (func $after))
    (func $init
      (call $wait)
      (call $after))
    (start $init))
  (core instance $i (instantiate $m
    (with "host" (instance
      (export "wait" (func $wait-lowered))
      (export "after" (func $after-lowered)))))))
