;; engine-lift-bomb: values whose host representation is far larger than
;; the guest memory they come from (lift-budget tests).
;;
;; Imports:  test:host/sink@0.1.0 { take: func(items: list<string>) }
;; Exports:  strings: func(n: u32, len: u32) -> list<string> (n strings,
;;             every one the same len bytes of zeros at address 16: one
;;             buffer aliased n times);
;;           bools: func(n: u32) -> list<bool> (n false values, one byte
;;             each in memory);
;;           send: func(n: u32, len: u32) (passes the list strings returns
;;             to take).
;; The memory is fixed at 5 pages (320 KiB): len up to 131056, n up to
;; 20000 for strings (entries from 128 KiB) and 327664 for bools.
(component
  (import "test:host/sink@0.1.0" (instance $sink
    (export "take" (func (param "items" (list string))))))
  (alias export $sink "take" (func $take))
  (core module $mem
    (memory (export "memory") 5))
  (core instance $mem (instantiate $mem))
  (alias core export $mem "memory" (core memory $memory))
  (core func $take-lowered (canon lower (func $take) (memory $memory)))
  (core module $m
    (import "env" "memory" (memory 5))
    (import "env" "take" (func $take (param i32 i32)))
    (func $fill (param $n i32) (param $len i32)
      (local $i i32)
      (local $p i32)
      (local.set $p (i32.const 0x20000))
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (i32.store (local.get $p) (i32.const 16))
          (i32.store offset=4 (local.get $p) (local.get $len))
          (local.set $p (i32.add (local.get $p) (i32.const 8)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $next))))
    (func (export "strings") (param $n i32) (param $len i32) (result i32)
      (call $fill (local.get $n) (local.get $len))
      (i32.store (i32.const 0) (i32.const 0x20000))
      (i32.store (i32.const 4) (local.get $n))
      (i32.const 0))
    (func (export "bools") (param $n i32) (result i32)
      (i32.store (i32.const 0) (i32.const 16))
      (i32.store (i32.const 4) (local.get $n))
      (i32.const 0))
    (func (export "send") (param $n i32) (param $len i32)
      (call $fill (local.get $n) (local.get $len))
      (call $take (i32.const 0x20000) (local.get $n))))
  (core instance $i (instantiate $m
    (with "env" (instance
      (export "memory" (memory $memory))
      (export "take" (func $take-lowered))))))
  (func (export "strings") (param "n" u32) (param "len" u32) (result (list string))
    (canon lift (core func $i "strings") (memory $memory)))
  (func (export "bools") (param "n" u32) (result (list bool))
    (canon lift (core func $i "bools") (memory $memory)))
  (func (export "send") (param "n" u32) (param "len" u32)
    (canon lift (core func $i "send"))))
