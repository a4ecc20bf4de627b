import { requireNativeComponent, NativeModules, Platform } from "react-native";

const { CameraKit } = NativeModules;

export const CameraView = requireNativeComponent("CKCameraView");

export async function requestPermission() {
  if (Platform.OS === "android") return CameraKit.requestDeviceCameraAuthorization();
  return CameraKit.checkDeviceCameraAuthorizationStatus();
}

export default CameraView;
