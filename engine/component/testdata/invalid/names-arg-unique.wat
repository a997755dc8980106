;; A core instantiation given one argument name twice.
(component
  (core module $m)
  (core instance $a (instantiate $m))
  (core instance (instantiate $m (with "x" (instance $a)) (with "x" (instance $a))))
)
