;; engine-preinit: a guest whose core start function leaves state behind,
;; for pre-initialisation tests. What the start function does depends on
;; mode, which it asks the host for and keeps in memory:
;;   0  sets the counters (a non-exported mutable global and a word of
;;      memory) to 41
;;   1  the same, then calls observe
;;   2  the same, then keeps the handle get-res returns
;;   3  the same, then keeps the handle open(7) returns
;;   4  the same, then takes a handle from get-res and drops it
;;   8  the same, then grows memory by 200 pages (12.5 MiB) and fills them
;;      with 0xab (a snapshot too big to keep)
;;
;; Imports:  test:host/init@0.1.0 { resource res;
;;             mode: func() -> u32; observe: func();
;;             get-res: func() -> own<res>; open: func(n: u32) -> own<res>;
;;             id: func(r: borrow<res>) -> u32 }
;; Exports:  test:guest/preinit@0.1.0 {
;;             count: func() -> u32 (adds one to the global, returns it);
;;             mem-count: func() -> u32 (the same for the memory word);
;;             mode: func() -> u32 (the mode the start function saw);
;;             res-id: func() -> u32 (id of the kept handle; 0: none);
;;             last-byte: func() -> u32 (the last byte of memory) }
(component
  (type $init-iface (instance
    (export "res" (type $res (sub resource)))
    (export "mode" (func (result u32)))
    (export "observe" (func))
    (export "get-res" (func (result (own $res))))
    (export "open" (func (param "n" u32) (result (own $res))))
    (export "id" (func (param "r" (borrow $res)) (result u32)))))
  (import "test:host/init@0.1.0" (instance $init (type $init-iface)))
  (alias export $init "res" (type $res))
  (alias export $init "mode" (func $mode))
  (alias export $init "observe" (func $observe))
  (alias export $init "get-res" (func $get-res))
  (alias export $init "open" (func $open))
  (alias export $init "id" (func $id))
  (core func $mode-lowered (canon lower (func $mode)))
  (core func $observe-lowered (canon lower (func $observe)))
  (core func $get-res-lowered (canon lower (func $get-res)))
  (core func $open-lowered (canon lower (func $open)))
  (core func $id-lowered (canon lower (func $id)))
  (core func $res-drop (canon resource.drop $res))

  (core module $m
    (import "host" "mode" (func $mode (result i32)))
    (import "host" "observe" (func $observe))
    (import "host" "get-res" (func $get-res (result i32)))
    (import "host" "open" (func $open (param i32) (result i32)))
    (import "host" "id" (func $id (param i32) (result i32)))
    (import "host" "res-drop" (func $res-drop (param i32)))
    (memory 1)
    ;; Memory: 16 the memory counter, 20 the mode, 32 the kept handle.
    (global $count (mut i32) (i32.const 0))
    (func $init
      (local $mode i32)
      (local.set $mode (call $mode))
      (i32.store (i32.const 20) (local.get $mode))
      (global.set $count (i32.const 41))
      (i32.store (i32.const 16) (i32.const 41))
      (if (i32.eq (local.get $mode) (i32.const 1))
        (then (call $observe)))
      (if (i32.eq (local.get $mode) (i32.const 2))
        (then (i32.store (i32.const 32) (call $get-res))))
      (if (i32.eq (local.get $mode) (i32.const 3))
        (then (i32.store (i32.const 32) (call $open (i32.const 7)))))
      (if (i32.eq (local.get $mode) (i32.const 4))
        (then (call $res-drop (call $get-res))))
      (if (i32.eq (local.get $mode) (i32.const 8))
        (then
          (drop (memory.grow (i32.const 200)))
          (memory.fill (i32.const 0x10000) (i32.const 0xab) (i32.const 13107200)))))
    (start $init)
    (func (export "count") (result i32)
      (global.set $count (i32.add (global.get $count) (i32.const 1)))
      (global.get $count))
    (func (export "mem-count") (result i32)
      (i32.store (i32.const 16) (i32.add (i32.load (i32.const 16)) (i32.const 1)))
      (i32.load (i32.const 16)))
    (func (export "mode") (result i32) (i32.load (i32.const 20)))
    (func (export "last-byte") (result i32)
      (i32.load8_u (i32.sub (i32.mul (memory.size) (i32.const 0x10000)) (i32.const 1))))
    (func (export "res-id") (result i32)
      (if (result i32) (i32.load (i32.const 32))
        (then (call $id (i32.load (i32.const 32))))
        (else (i32.const 0)))))
  (core instance $i (instantiate $m
    (with "host" (instance
      (export "mode" (func $mode-lowered))
      (export "observe" (func $observe-lowered))
      (export "get-res" (func $get-res-lowered))
      (export "open" (func $open-lowered))
      (export "id" (func $id-lowered))
      (export "res-drop" (func $res-drop))))))

  (func $count (result u32) (canon lift (core func $i "count")))
  (func $mem-count (result u32) (canon lift (core func $i "mem-count")))
  (func $mode-f (result u32) (canon lift (core func $i "mode")))
  (func $res-id (result u32) (canon lift (core func $i "res-id")))
  (func $last-byte (result u32) (canon lift (core func $i "last-byte")))
  (instance $api
    (export "count" (func $count))
    (export "mem-count" (func $mem-count))
    (export "mode" (func $mode-f))
    (export "res-id" (func $res-id))
    (export "last-byte" (func $last-byte)))
  (export "test:guest/preinit@0.1.0" (instance $api)))
