export { ServiceModule } from './service.module';
export {
  environmentPiecesOf,
  SERVICE_NAMES,
  SERVICES,
  type ConfigPiece,
  type ServiceDefinition,
  type ServiceName,
} from './service-definitions.constants';
