;; engine-resources: a guest-defined resource and a host-defined one.
;;
;; Imports:  test:host/blobs@0.1.0 { resource blob;
;;             make: func(n: u32) -> own<blob>; size: func(b: borrow<blob>) -> u32 }
;; Exports:  test:guest/counters@0.1.0 {
;;             resource counter (rep: address of its count; the destructor
;;               counts drops);
;;             [constructor]counter: func(start: u32) -> own<counter>;
;;             [method]counter.bump: func(self: borrow<counter>) -> u32
;;               (adds one, returns the new count);
;;             roundtrip: func(n: u32) -> u32 (make(n), size of it, drops
;;               the blob, returns the size);
;;             dropped: func() -> u32 (counters destroyed so far) }
(component
  (type $blobs-iface (instance
    (export "blob" (type $blob (sub resource)))
    (export "make" (func (param "n" u32) (result (own $blob))))
    (export "size" (func (param "b" (borrow $blob)) (result u32)))))
  (import "test:host/blobs@0.1.0" (instance $blobs (type $blobs-iface)))
  (alias export $blobs "blob" (type $blob))
  (alias export $blobs "make" (func $make))
  (alias export $blobs "size" (func $size))

  (core module $state
    (memory (export "memory") 1)
    (global $dropped (mut i32) (i32.const 0))
    (global $bump (mut i32) (i32.const 64))
    (func (export "dtor") (param i32)
      (global.set $dropped (i32.add (global.get $dropped) (i32.const 1))))
    (func (export "dropped") (result i32) (global.get $dropped))
    (func (export "alloc4") (result i32)
      (local $p i32)
      (local.set $p (global.get $bump))
      (global.set $bump (i32.add (local.get $p) (i32.const 4)))
      (local.get $p)))
  (core instance $state (instantiate $state))
  (alias core export $state "dtor" (core func $dtor))

  (type $counter (resource (rep i32) (dtor (core func $dtor))))
  (core func $counter-new (canon resource.new $counter))
  (core func $blob-drop (canon resource.drop $blob))
  (core func $make-lowered (canon lower (func $make)))
  (core func $size-lowered (canon lower (func $size)))

  (core module $main
    (import "state" "memory" (memory 1))
    (import "state" "alloc4" (func $alloc4 (result i32)))
    (import "rt" "counter-new" (func $counter-new (param i32) (result i32)))
    (import "rt" "blob-drop" (func $blob-drop (param i32)))
    (import "rt" "make" (func $make (param i32) (result i32)))
    (import "rt" "size" (func $size (param i32) (result i32)))
    (func (export "new") (param $start i32) (result i32)
      (local $p i32)
      (local.set $p (call $alloc4))
      (i32.store (local.get $p) (local.get $start))
      (call $counter-new (local.get $p)))
    ;; A borrow of the component's own resource arrives as the rep.
    (func (export "bump") (param $rep i32) (result i32)
      (i32.store (local.get $rep) (i32.add (i32.load (local.get $rep)) (i32.const 1)))
      (i32.load (local.get $rep)))
    (func (export "roundtrip") (param $n i32) (result i32)
      (local $h i32)
      (local $s i32)
      (local.set $h (call $make (local.get $n)))
      (local.set $s (call $size (local.get $h)))
      (call $blob-drop (local.get $h))
      (local.get $s)))
  (core instance $main (instantiate $main
    (with "state" (instance $state))
    (with "rt" (instance
      (export "counter-new" (func $counter-new))
      (export "blob-drop" (func $blob-drop))
      (export "make" (func $make-lowered))
      (export "size" (func $size-lowered))))))

  (func $new (param "start" u32) (result (own $counter))
    (canon lift (core func $main "new")))
  (func $bump (param "self" (borrow $counter)) (result u32)
    (canon lift (core func $main "bump")))
  (func $roundtrip (param "n" u32) (result u32)
    (canon lift (core func $main "roundtrip")))
  (func $dropped (result u32)
    (canon lift (core func $state "dropped")))
  ;; The interface is exported through a shim that imports the resource
  ;; and re-exports it, so the functions' types name the exported type
  ;; (external visibility), as wit-component lays exports out.
  (component $shim
    (import "counter" (type $c (sub resource)))
    (import "new" (func $new (param "start" u32) (result (own $c))))
    (import "bump" (func $bump (param "self" (borrow $c)) (result u32)))
    (import "roundtrip" (func $roundtrip (param "n" u32) (result u32)))
    (import "dropped" (func $dropped (result u32)))
    (export $c2 "counter" (type $c))
    (export "[constructor]counter" (func $new) (func (param "start" u32) (result (own $c2))))
    (export "[method]counter.bump" (func $bump) (func (param "self" (borrow $c2)) (result u32)))
    (export "roundtrip" (func $roundtrip))
    (export "dropped" (func $dropped)))
  (instance $api (instantiate $shim
    (with "counter" (type $counter))
    (with "new" (func $new))
    (with "bump" (func $bump))
    (with "roundtrip" (func $roundtrip))
    (with "dropped" (func $dropped))))
  (export "test:guest/counters@0.1.0" (instance $api)))
