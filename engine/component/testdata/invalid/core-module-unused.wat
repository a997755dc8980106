;; An invalid core module that is never instantiated.
(component
  (core module (func (result i32)))
)
