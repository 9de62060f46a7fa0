// Express 4, installed as `express4` (npm alias) to test the binding on both majors. Its own types are Express 4's
// `@types/express@4`, which is not installed; every API the tests call has the same shape in Express 5's types.
declare module 'express4' {
  import express from 'express'
  export default express
}
